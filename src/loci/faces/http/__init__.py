"""loci over HTTP: MCP's streamable HTTP transport behind a bearer token and request limits."""

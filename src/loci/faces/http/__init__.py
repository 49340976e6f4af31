"""loci over HTTP: MCP's streamable HTTP transport behind a bearer token and request limits."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["app", "bearer", "guard", "serve"]

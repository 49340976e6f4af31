"""The MCP face of loci: a thin layer of tools and resources over the services."""

"""The MCP face of loci: a thin layer of tools and resources over the services."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = [
    "arguments",
    "client_log",
    "errors",
    "grants",
    "idempotency",
    "provider",
    "server",
    "strict",
]

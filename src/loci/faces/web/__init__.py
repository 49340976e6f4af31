"""The web view: loci's memories in a browser, served at `/ui` by the HTTP server."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["app", "jobs", "listing", "security", "sessions", "text", "view"]

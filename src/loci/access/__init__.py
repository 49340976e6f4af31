"""Who may use the HTTP server: named tokens, each limited to some toolsets or to reading."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["grant", "schema", "tokens"]

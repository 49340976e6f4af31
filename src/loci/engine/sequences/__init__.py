"""Ordered groups of memories: their members and positions, and their keyword documents."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["conversations", "members", "speakers"]

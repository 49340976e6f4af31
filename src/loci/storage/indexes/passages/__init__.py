"""Passages of long memories: the in-process index and PostgreSQL's."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["in_process", "postgres"]

"""Retrieval quality measured on public data sets, through the same code path as `recall`."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["extract_quality", "facts", "runner", "story"]

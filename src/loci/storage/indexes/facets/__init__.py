"""The memory fields that recall filters test most, mirrored in memory."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["mirror"]

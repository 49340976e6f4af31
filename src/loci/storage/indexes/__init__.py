"""The indexes derived from the memory tables, each a seam with its Protocol, its plain
reference version, its accelerations and its PostgreSQL version; `sync.py` keeps a
process's indexes in step with the change log."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["derived", "facets", "keywords", "passages", "sync", "vectors"]

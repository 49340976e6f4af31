"""Moving a store between a data folder (SQLite) and a PostgreSQL database: `loci migrate`."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["ends", "move"]

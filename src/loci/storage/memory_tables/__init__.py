"""The memory tables and every statement on them: memories, tags, namespaces, sequences and
the change log, on SQLite and (`postgres.py`) on PostgreSQL."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = [
    "change_log",
    "conditions",
    "memories",
    "metadata_values",
    "pages",
    "passages",
    "placements",
    "postgres",
    "schema",
    "sequence_documents",
    "timeline",
    "upkeep",
    "validity",
]

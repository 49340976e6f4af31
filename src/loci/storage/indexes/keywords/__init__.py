"""The keyword index: the Protocol (`protocol.py`), FTS5's terms, the in-memory mirror of
FTS5 (`mirror.py`, `postings.py`), and the PostgreSQL postings scored as FTS5 does
(`postgres*.py`)."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["fts_terms", "mirror", "postgres", "postgres_memories", "protocol"]

"""Storage: the SQLite system of record and the derived vector index."""

"""The databases: the `Database` Protocol the services see, the SQL that differs between
engines, the schema runner, and the two engines (SQLite, the system of record; PostgreSQL
for teams, in `postgres/`)."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["db", "dialect", "health", "postgres", "receipts", "schema", "sqlite", "vector_blob"]

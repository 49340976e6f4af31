"""The memory tables and every statement on them: memories, tags, namespaces, sequences and
the change log, on SQLite and (`postgres.py`) on PostgreSQL."""

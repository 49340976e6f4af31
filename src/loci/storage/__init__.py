"""Storage: the databases (SQLite, the system of record, or PostgreSQL for teams), the
memory tables and the indexes derived from them."""

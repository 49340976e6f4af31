"""The databases: the `Database` Protocol the services see, the SQL that differs between
engines, the schema runner, and the two engines (SQLite, the system of record; PostgreSQL
for teams, in `postgres/`)."""

"""Moving a store between a data folder (SQLite) and a PostgreSQL database: `loci migrate`."""

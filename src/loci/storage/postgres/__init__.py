"""The PostgreSQL engine (with pgvector): one database shared by every server of a team.

Needs the `postgres` extra (psycopg 3); nothing here is imported unless a database URL is set.
"""

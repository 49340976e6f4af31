"""Migrations on PostgreSQL: each owner's `Schema.postgres` scripts, numbered per owner.

The bookkeeping tables are loci's own: `schema_versions` (how far each owner has come) and
`store_state` (the change counter that tells other servers something changed).
"""

from __future__ import annotations

from collections.abc import Sequence

from loci.errors import StorageUnavailableError
from loci.storage.databases.postgres.connection import PgConnection
from loci.storage.databases.schema import Schema

BOOKKEEPING = """
CREATE TABLE IF NOT EXISTS schema_versions (
    owner   TEXT PRIMARY KEY,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS store_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    data_version BIGINT NOT NULL
);
INSERT INTO store_state (id, data_version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
"""
BUMP_DATA_VERSION = "UPDATE store_state SET data_version = data_version + 1 WHERE id = 1"
READ_DATA_VERSION = "SELECT data_version FROM store_state WHERE id = 1"


def in_schema(conn: PgConnection, name: str) -> bool:
    """Whether the table or index `name` exists in the connection's own schema (the first of
    its search path), not merely somewhere on the path."""
    found = conn.execute(
        "SELECT to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?)) IS NOT NULL",
        (name,),
    ).fetchone()
    return bool(found[0])


def refuse_unported(schemas: Sequence[Schema]) -> None:
    """Refuse owners whose tables have no PostgreSQL migrations yet."""
    missing = [s.owner for s in schemas if s.migrations and not s.postgres]
    if missing:
        raise StorageUnavailableError(
            f"these parts of loci do not run on PostgreSQL yet: {', '.join(missing)}; "
            "use a data folder (SQLite) for them",
            owners=missing,
        )


def versions(conn: PgConnection) -> dict[str, int]:
    """Each owner's migration number as the database records it (empty before any)."""
    if not in_schema(conn, "schema_versions"):
        return {}
    rows = conn.execute("SELECT owner, version FROM schema_versions ORDER BY owner")
    return {str(owner): int(version) for owner, version in rows}


def done(conn: PgConnection, schemas: Sequence[Schema]) -> dict[str, int]:
    """How many of its migrations each owner of `schemas` has run in this database."""
    known = versions(conn)
    return {s.owner: known.get(s.owner, 0) for s in schemas}


def is_current(conn: PgConnection, schemas: Sequence[Schema]) -> bool:
    """Whether every owner's migrations have all run (refuses a database a newer loci wrote)."""
    ran = done(conn, schemas)
    _refuse_newer(ran, schemas)
    return in_schema(conn, "store_state") and all(ran[s.owner] == len(s.postgres) for s in schemas)


def migrate(conn: PgConnection, schemas: Sequence[Schema]) -> None:
    """Bring every owner's tables up to date (inside the caller's write transaction)."""
    conn.run_script(BOOKKEEPING)
    ran = done(conn, schemas)
    _refuse_newer(ran, schemas)
    for owner_schema in schemas:
        first = ran[owner_schema.owner]
        for number, script in enumerate(owner_schema.postgres[first:], start=first + 1):
            conn.run_script(script)
            conn.execute(
                "INSERT INTO schema_versions (owner, version) VALUES (?, ?) "
                "ON CONFLICT (owner) DO UPDATE SET version = excluded.version",
                (owner_schema.owner, number),
            )


def _refuse_newer(ran: dict[str, int], schemas: Sequence[Schema]) -> None:
    newer = [s.owner for s in schemas if ran[s.owner] > len(s.postgres)]
    if newer:
        described = ", ".join(f"{owner} {ran[owner]}" for owner in newer)
        raise StorageUnavailableError(
            f"this database was written by a newer loci ({described}); upgrade loci",
            owners=newer,
        )

"""Schemas owned by the parts of loci that keep tables, and the runner that migrates them.

Each owner (the memory tables here in `storage`, and each toolset that keeps tables) numbers
its own migrations; `build_app` hands every owner's `Schema` to the database, and the table
`schema_versions` records how far each has come. Stores written before owners had their own
numbers (`PRAGMA user_version` 1 to `LEGACY_LAST`) ran one list in which the owners' first
migrations were interleaved: each `Schema` says where in that list its migrations stood
(`legacy`), and such a store (and a new one, at 0) is first brought along that list in its
order, so every store ends with the same tables whatever version it started from.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from loci.errors import StorageUnavailableError

#: The last `user_version` of the single list of migrations.
LEGACY_LAST = 15
#: `user_version` of a store whose owners' versions are in `schema_versions`.
OWNED_VERSIONS = 16
#: The row of `schema_versions` that keeps where in the single list the store was when it
#: changed over: an owner registered only later has run its legacy migrations up to there.
BEFORE_OWNERS = "(single list)"

VERSIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_versions (
    owner   TEXT PRIMARY KEY,
    version INTEGER NOT NULL
)
"""


@dataclass(frozen=True)
class Schema:
    """One owner's tables: its numbered migrations (SQL scripts), the first `len(legacy)` of
    which stood in the single list at those positions (1-based), and the same tables'
    migrations on PostgreSQL (numbered on their own: PostgreSQL stores never had the single
    list)."""

    owner: str
    migrations: tuple[str, ...]
    legacy: tuple[int, ...] = ()
    postgres: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.legacy) > len(self.migrations):
            raise ValueError(f"{self.owner}: more legacy positions than migrations")


def versions(conn: sqlite3.Connection) -> dict[str, int]:
    """Each owner's migration number as the store records it (empty before any)."""
    if conn.execute("PRAGMA user_version").fetchone()[0] < OWNED_VERSIONS:
        return {}
    rows = conn.execute("SELECT owner, version FROM schema_versions ORDER BY owner")
    return {str(owner): int(version) for owner, version in rows}


def done(conn: sqlite3.Connection, schemas: Sequence[Schema]) -> dict[str, int]:
    """How many of its migrations each owner of `schemas` has run in this store."""
    known = versions(conn)
    return {schema.owner: _done(schema, known) for schema in schemas}


def is_current(conn: sqlite3.Connection, schemas: Sequence[Schema]) -> bool:
    """Whether every owner's migrations have all run (refuses a store a newer loci wrote)."""
    _refuse_newer(conn, schemas)
    known = versions(conn)
    return all(_done(schema, known) == len(schema.migrations) for schema in schemas)


def migrate(conn: sqlite3.Connection, schemas: Sequence[Schema]) -> None:
    """Bring every owner's tables up to date (inside the caller's write transaction)."""
    _refuse_newer(conn, schemas)
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version <= LEGACY_LAST:
        _follow_the_single_list(conn, schemas, version)
    known = versions(conn)
    for schema in schemas:
        ran = _done(schema, known)
        for number, script in enumerate(schema.migrations[ran:], start=ran + 1):
            run_script(conn, script)
            _record(conn, schema.owner, number)


def run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run a migration's statements one by one."""
    for statement in statements(script):
        conn.execute(statement)


def statements(script: str) -> Iterator[str]:
    """Split a migration into statements (triggers contain `;` inside BEGIN ... END)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                yield buffer.strip()
            buffer = ""
    if buffer.strip():
        yield buffer.strip()


def _follow_the_single_list(
    conn: sqlite3.Connection, schemas: Sequence[Schema], version: int
) -> None:
    """Run the legacy migrations after `version` in the order they had, then record each
    owner as having run all of its legacy ones."""
    steps = sorted(
        (position, schema.migrations[index])
        for schema in schemas
        for index, position in enumerate(schema.legacy)
        if position > version
    )
    for _, script in steps:
        run_script(conn, script)
    conn.execute(VERSIONS_TABLE)
    _record(conn, BEFORE_OWNERS, version)
    for schema in schemas:
        _record(conn, schema.owner, len(schema.legacy))
    conn.execute(f"PRAGMA user_version = {OWNED_VERSIONS}")


def _done(schema: Schema, known: dict[str, int]) -> int:
    """How many of `schema`'s migrations the store has run."""
    if schema.owner in known:
        return known[schema.owner]
    before = known.get(BEFORE_OWNERS, 0)
    return sum(1 for position in schema.legacy if position <= before)


def _record(conn: sqlite3.Connection, owner: str, version: int) -> None:
    conn.execute(
        "INSERT INTO schema_versions(owner, version) VALUES (?, ?) "
        "ON CONFLICT (owner) DO UPDATE SET version = excluded.version",
        (owner, version),
    )


def _refuse_newer(conn: sqlite3.Connection, schemas: Sequence[Schema]) -> None:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    newer = version > OWNED_VERSIONS
    if not newer:
        known = versions(conn)
        newer = any(_done(schema, known) > len(schema.migrations) for schema in schemas)
    if newer:
        raise StorageUnavailableError(
            f"this store was written by a newer loci (schema {version}, "
            f"{_described(versions(conn) if version == OWNED_VERSIONS else {})}); upgrade loci",
            schema_version=version,
        )


def _described(known: dict[str, int]) -> str:
    parts = [f"{owner} {number}" for owner, number in known.items() if owner != BEFORE_OWNERS]
    return ", ".join(parts) or "unknown parts"

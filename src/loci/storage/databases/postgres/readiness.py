"""Whether a PostgreSQL database is ready for loci, for `loci doctor`: the server's version,
pgvector, the role's rights and how far loci's tables have come. Reads only; changes nothing.

Each problem says what to run: the fix is usually one statement for the database's owner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import psycopg

from loci.database_url import masked
from loci.errors import StorageUnavailableError
from loci.storage.databases.postgres.connect import connect
from loci.storage.databases.postgres.connection import PgConnection
from loci.storage.databases.postgres.schema import in_schema, versions
from loci.storage.databases.schema import Schema

#: PostgreSQL 15 (`server_version_num`).
MIN_SERVER = 150_000
MIN_PGVECTOR = (0, 7)
#: What loci does to its own tables.
TABLE_RIGHTS = ("SELECT", "INSERT", "UPDATE", "DELETE")
_CREATE_TABLE = re.compile(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", re.IGNORECASE)


@dataclass
class Readiness:
    """What `loci doctor` shows of a database: checks by name, and problems with their fix."""

    checks: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def readiness(url: str, schemas: Sequence[Schema], timeout_seconds: int = 10) -> Readiness:
    """Check the database at `url` for the owners of `schemas`."""
    found = Readiness({"database": masked(url)})
    try:
        raw = connect(url, timeout_seconds)
    except StorageUnavailableError as exc:
        found.checks["server"] = "unreachable"
        found.problems.append(
            f"cannot connect to {masked(url)}: {exc.details.get('reason', exc.message)}; check "
            "the host, port, user, password and sslmode, and that the server is running"
        )
        return found
    with raw:
        conn = PgConnection(raw)
        _server(raw, found)
        _pgvector(conn, found)
        role, may_create = _role(conn, found)
        behind = _tables(conn, schemas, found, role)
        if behind and not may_create:
            found.problems.append(
                f"the role {role} may not create tables, which loci must do to make or upgrade "
                f"its tables ({', '.join(behind)}) at its next start: run "
                f'`GRANT CREATE ON SCHEMA public TO "{role}";` (needed only then)'
            )
    return found


def _server(raw: psycopg.Connection[object], found: Readiness) -> None:
    number = raw.info.server_version
    found.checks["server"] = f"PostgreSQL {number // 10_000}.{number % 10_000}"
    if number < MIN_SERVER:
        found.problems.append(
            f"loci needs PostgreSQL 15 or newer, and this server runs {number // 10_000}; "
            "upgrade the server or use another one"
        )


def _pgvector(conn: PgConnection, found: Readiness) -> None:
    installed = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    row = installed.fetchone()
    if row is not None:
        found.checks["pgvector"] = str(row[0])
        if _version(str(row[0])) < MIN_PGVECTOR:
            found.problems.append(
                f"pgvector {row[0]} is too old (loci needs 0.7 or newer): run "
                "`ALTER EXTENSION vector UPDATE;` after installing a newer pgvector on the server"
            )
        return
    available = conn.execute(
        "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
    ).fetchone()
    if available is None:
        found.checks["pgvector"] = "not installed on the server"
        found.problems.append(
            "the server has no pgvector: install it (Debian and Ubuntu: `apt install "
            "postgresql-<version>-pgvector`; managed services: enable the `vector` extension), "
            "then run `CREATE EXTENSION vector;` in this database"
        )
        return
    found.checks["pgvector"] = f"{available[0]} available, not created in this database"
    if _may_create_vector(conn):
        found.checks["pgvector"] += " (loci creates it at its first start)"
        return
    found.problems.append(
        "pgvector is installed on the server but not in this database, and this role may not "
        "create it: run `CREATE EXTENSION vector;` in it as its owner"
    )


def _may_create_vector(conn: PgConnection) -> bool:
    """Whether the role may create pgvector here, as loci's first start does: a superuser may,
    and a role with CREATE on the database may when the extension is a trusted one."""
    row = conn.execute(
        "SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) "
        "OR (has_database_privilege(current_database(), 'CREATE') AND EXISTS (SELECT 1 FROM "
        "pg_available_extension_versions WHERE name = 'vector' AND trusted))"
    ).fetchone()
    return bool(row[0])


def _role(conn: PgConnection, found: Readiness) -> tuple[str, bool]:
    """The role loci connects as, and whether it may create tables (which only making or
    upgrading loci's tables needs: a role with rights on the tables alone serves)."""
    role, may_create = conn.execute(
        "SELECT current_user, has_schema_privilege(current_schema(), 'CREATE')"
    ).fetchone()
    found.checks["role"] = str(role) + ("" if may_create else " (may not create tables)")
    return str(role), bool(may_create)


def _tables(
    conn: PgConnection, schemas: Sequence[Schema], found: Readiness, role: str
) -> list[str]:
    """Check loci's tables; the owners whose tables are to be made or upgraded."""
    lacking = _tables_lacking_rights(conn, schemas)
    if lacking:
        found.problems.append(
            f"the role {role} may not read and write every loci table (missing on "
            f"{', '.join(lacking)}): run `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN "
            f'SCHEMA public TO "{role}";`'
        )
    if "schema_versions" in lacking:
        found.checks["tables"] = "unreadable by this role"
        return []
    known = versions(conn)
    done = {s.owner: known.get(s.owner, 0) for s in schemas}
    found.checks["tables"] = ", ".join(f"{owner} {n}" for owner, n in done.items())
    behind = [s.owner for s in schemas if done[s.owner] < len(s.postgres)]
    newer = [s.owner for s in schemas if done[s.owner] > len(s.postgres)]
    if newer:
        found.problems.append(f"a newer loci wrote these tables ({', '.join(newer)}); upgrade loci")
    if behind:
        found.checks["migrations"] = f"to run at the next start: {', '.join(behind)}"
    return behind


def _tables_lacking_rights(conn: PgConnection, schemas: Sequence[Schema]) -> list[str]:
    """loci's tables that exist and that the role may not read and write."""
    tables = sorted({*_tables_made_by(schemas), "schema_versions", "store_state"})
    return [
        name
        for name in tables
        if in_schema(conn, name)
        and not all(
            conn.execute("SELECT has_table_privilege(?, ?)", (name, right)).fetchone()[0]
            for right in TABLE_RIGHTS
        )
    ]


def _tables_made_by(schemas: Sequence[Schema]) -> set[str]:
    return {
        match.group(1)
        for s in schemas
        for script in s.postgres
        for match in _CREATE_TABLE.finditer(script)
    }


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")[:2] if part.isdigit())

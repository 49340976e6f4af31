"""`loci doctor`'s view of a PostgreSQL database: the server, pgvector, the role's rights and
loci's tables, each problem with the statement that fixes it; nothing is changed."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")

import psycopg
from psycopg.conninfo import make_conninfo

from loci.storage.databases.postgres.database import PostgresDatabase
from loci.storage.databases.postgres.readiness import readiness
from tests.engines import PORTED
from tests.postgres import fresh_database, system_server


def test_a_ready_database_has_no_problems_and_is_not_changed(postgres_url):
    before = readiness(postgres_url, PORTED)
    assert before.checks["server"].startswith("PostgreSQL 18")
    assert before.checks["pgvector"].startswith("0.8")
    assert before.problems == []
    assert before.checks["migrations"].startswith("to run at the next start: receipts")
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute(b"SELECT to_regclass('schema_versions')").fetchone()[0] is None
    PostgresDatabase(postgres_url, schemas=PORTED).close()
    after = readiness(postgres_url, PORTED)
    assert after.problems == [] and "migrations" not in after.checks
    assert after.checks["tables"] == "receipts 1, access 2, context 1, checkpoints 1"


def test_a_database_without_the_extension_is_told_to_create_it(postgres_server):
    """loci's first start creates pgvector where the role may (a superuser here); a role that
    may not is told the statement its owner runs."""
    with fresh_database(postgres_server) as url:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(b"DROP EXTENSION vector")
            conn.execute(b"DROP ROLE IF EXISTS guest")
            conn.execute(b"CREATE ROLE guest LOGIN")
        try:
            owner = readiness(url, PORTED)
            guest = readiness(make_conninfo(url, user="guest"), PORTED)
        finally:
            with psycopg.connect(postgres_server, autocommit=True) as conn:
                conn.execute(b"DROP OWNED BY guest")
                conn.execute(b"DROP ROLE guest")
    assert "not created in this database" in owner.checks["pgvector"]
    assert "loci creates it at its first start" in owner.checks["pgvector"]
    assert not any("vector" in p for p in owner.problems)
    assert "loci creates it" not in guest.checks["pgvector"]
    assert any("CREATE EXTENSION vector;" in p for p in guest.problems)


def test_a_role_without_rights_is_told_the_grants(postgres_url):
    PostgresDatabase(postgres_url, schemas=PORTED).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(b"DROP ROLE IF EXISTS visitor")
        conn.execute(b"CREATE ROLE visitor LOGIN")
        conn.execute(b"GRANT SELECT ON write_receipts TO visitor")
    try:
        found = readiness(make_conninfo(postgres_url, user="visitor"), PORTED)
        assert found.checks["role"] == "visitor (may not create tables)"
        assert found.checks["tables"] == "unreadable by this role"
        problems = " ".join(found.problems)
        assert "missing on access_tokens, checkpoint_blobs" in problems
        assert (
            'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "visitor"'
            in (problems)
        )
        assert "GRANT CREATE" not in problems  # the tables are there: rights on them are missing
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(b"REVOKE ALL ON write_receipts FROM visitor")
            conn.execute(b"DROP ROLE visitor")


def test_a_role_with_rights_on_the_tables_alone_serves_and_is_told_so(postgres_url):
    """Least privilege: no CREATE, only reading and writing loci's tables, which are current."""
    PostgresDatabase(postgres_url, schemas=PORTED).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(b"DROP ROLE IF EXISTS worker")
        conn.execute(b"CREATE ROLE worker LOGIN")
        conn.execute(
            b"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO worker"
        )
    url = make_conninfo(postgres_url, user="worker")
    try:
        found = readiness(url, PORTED)
        assert found.problems == [] and found.checks["role"] == "worker (may not create tables)"
        db = PostgresDatabase(url, schemas=PORTED)
        with db.write() as conn:
            conn.execute(
                "INSERT INTO access_tokens VALUES (?, ?, ?, ?, ?, ?)",
                ("w", "d", None, 0, None, "t"),
            )
        db.close()
        # A loci with one more migration to run: only then is CREATE needed.
        upgraded = replace(PORTED[-1], postgres=(*PORTED[-1].postgres, "SELECT 1"))
        older = (*PORTED[:-1], upgraded)
        behind = readiness(url, older)
        assert any('GRANT CREATE ON SCHEMA public TO "worker"' in p for p in behind.problems)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(b"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM worker")
            conn.execute(b"DROP ROLE worker")


def test_an_unreachable_server_is_named_without_its_password():
    found = readiness("postgresql://ann:s3cret@127.0.0.1:1/loci", PORTED, timeout_seconds=2)
    assert found.checks["server"] == "unreachable"
    assert "ann:***@127.0.0.1:1" in found.problems[0] and "s3cret" not in str(found)


def test_the_machines_own_postgresql_without_pgvector_is_explained():
    with system_server() as url:
        found = readiness(url, PORTED)
    assert found.checks["server"].startswith("PostgreSQL 1")
    assert found.checks["pgvector"] == "not installed on the server"
    assert any("apt install postgresql-<version>-pgvector" in p for p in found.problems)

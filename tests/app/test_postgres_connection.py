"""The PostgreSQL engine's own behaviour: lost connections, unreachable servers, URLs shown
without their password, and the rewriting of placeholders."""

from __future__ import annotations

import pytest

from loci.database_url import is_database_url, masked
from loci.errors import ConfigurationError, StorageUnavailableError

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")

from loci.storage.databases.postgres.connection import placeholders_for_psycopg
from loci.storage.databases.postgres.database import PostgresDatabase
from tests.engines import PORTED


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT ? + ?", "SELECT %s + %s"),
        ("SELECT '?', \"a?\", ? -- why?\n", "SELECT '?', \"a?\", %s -- why?\n"),
        ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', %s"),
        ("SELECT 5 % 2, '10%'", "SELECT 5 %% 2, '10%%'"),
    ],
)
def test_placeholders_are_rewritten_outside_quotes_only(sql, expected):
    assert placeholders_for_psycopg(sql) == expected


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            "postgresql://ann:s3cret@db.example:5432/loci",
            "postgresql://ann:***@db.example:5432/loci",
        ),
        ("postgres://ann@db/loci?sslmode=require", "postgres://ann@db/loci?sslmode=require"),
        (
            "postgresql://db/loci?password=s3cret&sslmode=verify-full",
            "postgresql://db/loci?password=***&sslmode=verify-full",
        ),
        ("host=db password='s3 cret' dbname=loci", "host=db password=*** dbname=loci"),
    ],
)
def test_a_password_is_never_shown(url, shown):
    assert masked(url) == shown and "s3" not in masked(url)


def test_only_postgresql_urls_name_a_database():
    assert is_database_url("postgresql://db/loci") and is_database_url("postgres://db/x")
    assert not is_database_url("/home/ann/loci.db") and not is_database_url("sqlite:///x")


def test_an_unreachable_server_is_a_clear_error_without_the_password():
    url = "postgresql://ann:s3cret@127.0.0.1:1/loci?connect_timeout=2"
    with pytest.raises(StorageUnavailableError) as caught:
        PostgresDatabase(url, connect_timeout_seconds=2, schemas=PORTED)
    message = str(caught.value)
    assert "could not be reached" in message and "ann:***@127.0.0.1:1" in message
    assert "s3cret" not in message and "s3cret" not in repr(caught.value.details)


def test_a_parameter_libpq_does_not_know_is_a_configuration_error():
    url = "postgresql://ann:s3cret@127.0.0.1:1/loci?bogus=1"
    with pytest.raises(ConfigurationError, match='"bogus"') as caught:
        PostgresDatabase(url, schemas=PORTED)
    assert caught.value.details["setting"] == "database_url" and "s3cret" not in str(caught.value)


def test_the_urls_own_connect_timeout_is_kept():
    """Against a listener that never answers, the URL's one second and not loci's minute
    (bounded far above either, so that a slow machine does not fail it)."""
    import socket
    import time

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"postgresql://ann@127.0.0.1:{silent.getsockname()[1]}/loci?connect_timeout=1"
        started = time.monotonic()
        with pytest.raises(StorageUnavailableError, match="timeout"):
            PostgresDatabase(url, connect_timeout_seconds=60, schemas=PORTED)
        assert time.monotonic() - started < 30


def _add_token(db, name: str) -> None:
    with db.write() as conn:
        conn.execute(
            "INSERT INTO access_tokens VALUES (?, ?, ?, ?, ?, ?)", (name, "d", None, 0, None, "t")
        )


def _cut_loci_connections(url: str) -> None:
    """Terminate every connection loci has open to the database, as a server restart does."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(
            b"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            b"WHERE application_name = 'loci' AND pid <> pg_backend_pid()"
        )


def test_a_lost_connection_fails_one_call_and_the_next_reconnects(postgres_url):
    db = PostgresDatabase(postgres_url, schemas=PORTED)
    _add_token(db, "a")
    _cut_loci_connections(postgres_url)
    with (
        pytest.raises(StorageUnavailableError, match="reconnects at the next call"),
        db.locked() as conn,
    ):
        conn.execute("SELECT count(*) FROM access_tokens").fetchone()
    with db.locked() as conn:
        assert conn.execute("SELECT count(*) FROM access_tokens").fetchone()[0] == 1
    db.close()


def test_a_schema_of_its_own_ignores_loci_tables_further_down_the_search_path(postgres_url):
    from loci.storage.databases.postgres.scratch import scratch_schema

    public = PostgresDatabase(postgres_url, schemas=PORTED)
    _add_token(public, "a")
    with scratch_schema(postgres_url, "loci_test") as url:
        own = PostgresDatabase(url, schemas=PORTED)
        with own.locked() as conn:
            assert conn.execute("SELECT count(*) FROM access_tokens").fetchone()[0] == 0
            schema = conn.execute("SELECT current_schema()").fetchone()[0]
        assert schema.startswith("loci_test_") and own.schema_versions()["access"] == 2
        own.close()
    with public.locked() as conn:
        assert conn.execute("SELECT count(*) FROM access_tokens").fetchone()[0] == 1
        gone = conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname = ?", (schema,))
        assert gone.fetchone()[0] == 0
    public.close()


def _backend(db) -> int:
    with db.locked() as conn:
        return int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])


def _two_connections_at_once(db) -> tuple[int, int]:
    """The backends of two threads each inside a snapshot at the same time."""
    import threading

    inside, done = threading.Event(), threading.Event()
    pids: dict[str, int] = {}

    def other() -> None:
        with db.snapshot() as conn:
            pids["other"] = int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])
            inside.set()
            assert done.wait(30)

    thread = threading.Thread(target=other)
    thread.start()
    try:
        assert inside.wait(30)
        with db.snapshot() as conn:
            pids["this"] = int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])
    finally:
        done.set()
        thread.join(30)
    return pids["this"], pids["other"]


def test_threads_read_side_by_side_on_connections_of_their_own(postgres_url):
    db = PostgresDatabase(postgres_url, schemas=PORTED)
    this, other = _two_connections_at_once(db)
    assert this != other
    # Given back afterwards: later calls reuse them rather than connecting again.
    assert {_backend(db) for _ in range(5)} <= {this, other}
    db.close()


def test_a_call_nested_in_a_write_runs_in_its_transaction(postgres_url):
    db = PostgresDatabase(postgres_url, schemas=PORTED)
    with db.write() as conn:
        writer = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        conn.execute(
            "INSERT INTO access_tokens VALUES (?, ?, ?, ?, ?, ?)", ("n", "d", None, 0, None, "t")
        )
        with db.locked() as nested:
            assert nested.execute("SELECT pg_backend_pid()").fetchone()[0] == writer
            assert nested.execute("SELECT count(*) FROM access_tokens").fetchone()[0] == 1
        with db.snapshot() as nested:  # no second BEGIN: the same transaction
            assert nested.execute("SELECT count(*) FROM access_tokens").fetchone()[0] == 1
    with db.locked() as conn:
        assert conn.execute("SELECT count(*) FROM access_tokens").fetchone()[0] == 1
    db.close()


def test_an_outage_drops_the_idle_connections_with_the_broken_one(postgres_url):
    db = PostgresDatabase(postgres_url, schemas=PORTED)
    _two_connections_at_once(db)  # two connections now wait, idle
    _cut_loci_connections(postgres_url)
    with pytest.raises(StorageUnavailableError):
        _backend(db)
    assert _backend(db) > 0  # not the other broken one: a new connection
    db.close()


def test_bookkeeping_written_behind_leaves_the_change_counter_alone(postgres_url):
    db = PostgresDatabase(postgres_url, schemas=PORTED)
    _add_token(db, "b")
    version = db.data_version()
    db.write_behind(lambda conn: conn.execute("UPDATE access_tokens SET read_only = 1"))
    db.flush_behind()
    with db.locked() as conn:
        assert conn.execute("SELECT read_only FROM access_tokens").fetchone()[0] == 1
    assert db.data_version() == version  # no index or cache follows access statistics
    db.close()

"""The Database contract on both engines: transactions, isolation, change detection,
migrations, constraint errors and SQL written once for both."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from loci.errors import StorageUnavailableError
from loci.storage.databases.db import CONSTRAINT_ERRORS
from loci.storage.databases.schema import Schema
from loci.storage.databases.sqlite import SqliteDatabase

NOTES = Schema(
    "notes",
    ("CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL, n INTEGER NOT NULL);",),
    postgres=("CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL, n BIGINT NOT NULL);",),
)
NOTES_V2 = Schema(
    "notes",
    (*NOTES.migrations, "ALTER TABLE notes ADD COLUMN tag TEXT;"),
    postgres=(*NOTES.postgres, "ALTER TABLE notes ADD COLUMN tag TEXT;"),
)


def count(db):
    with db.locked() as conn:
        return conn.execute("SELECT count(*) FROM notes").fetchone()[0]


def test_a_write_commits_whole_or_not_at_all(open_store):
    db = open_store((NOTES,))
    with db.write() as conn:
        conn.execute("INSERT INTO notes VALUES (?, ?, ?)", ("a", "first", 1))

    def fail_half_way() -> None:
        with db.write() as conn:
            conn.execute("INSERT INTO notes VALUES (?, ?, ?)", ("b", "second", 2))
            raise RuntimeError("the service failed half-way")

    with pytest.raises(RuntimeError):
        fail_half_way()
    assert count(db) == 1
    assert count(open_store((NOTES,))) == 1  # another server sees the same


def test_sql_is_written_once_for_both_engines(store):
    with store.write() as conn:
        conn.executemany(
            "INSERT INTO access_tokens (name, digest, toolsets, read_only, namespaces, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [("a?b", "d1", None, 0, None, "t"), ("100%", "d2", "[]", 1, None, "t")],
        )
        # A `?` and a `%` inside quotes are text, not placeholders.
        found = conn.execute(
            "SELECT name FROM access_tokens WHERE name IN ('a?b', '100%') AND read_only = ? "
            "ORDER BY name",
            (1,),
        ).fetchall()
        assert [row[0] for row in found] == ["100%"]
        gone = conn.execute(
            "DELETE FROM access_tokens WHERE name LIKE ? RETURNING name", ("a%",)
        ).fetchall()
        assert gone == [("a?b",)]


def test_a_broken_constraint_is_one_error_type_on_both_engines(store):
    with store.write() as conn:
        conn.execute(
            "INSERT INTO access_tokens VALUES (?, ?, ?, ?, ?, ?)", ("x", "d", None, 0, None, "t")
        )
    with pytest.raises(CONSTRAINT_ERRORS), store.write() as conn:
        conn.execute(
            "INSERT INTO access_tokens VALUES (?, ?, ?, ?, ?, ?)", ("x", "e", None, 0, None, "t")
        )
    with store.locked() as conn:
        assert conn.execute("SELECT digest FROM access_tokens").fetchall() == [("d",)]


def test_a_snapshot_sees_one_state_while_another_server_writes(open_store):
    reader, writer = open_store((NOTES,)), open_store((NOTES,))
    with reader.snapshot() as conn:
        before = conn.execute("SELECT count(*) FROM notes").fetchone()[0]
        with writer.write() as other:
            other.execute("INSERT INTO notes VALUES (?, ?, ?)", ("a", "x", 1))
        assert conn.execute("SELECT count(*) FROM notes").fetchone()[0] == before == 0
    assert count(reader) == 1


def test_another_servers_commit_changes_the_data_version(open_store):
    mine, theirs = open_store((NOTES,)), open_store((NOTES,))
    version = mine.data_version()
    assert mine.data_version() == version  # reading changes nothing
    with theirs.write() as conn:
        conn.execute("INSERT INTO notes VALUES (?, ?, ?)", ("a", "x", 1))
    assert mine.data_version() != version


def test_writers_on_two_servers_take_turns(open_store):
    """Read-then-write inside `write()` sees no other writer: no increment is lost."""
    servers = [open_store((NOTES,)) for _ in range(2)]
    with servers[0].write() as conn:
        conn.execute("INSERT INTO notes VALUES ('c', '', 0)")

    def bump(db):
        for _ in range(25):
            with db.write() as conn:
                n = conn.execute("SELECT n FROM notes WHERE id = 'c'").fetchone()[0]
                conn.execute("UPDATE notes SET n = ? WHERE id = 'c'", (n + 1,))

    threads = [threading.Thread(target=bump, args=(db,)) for db in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    with servers[0].locked() as conn:
        assert conn.execute("SELECT n FROM notes WHERE id = 'c'").fetchone()[0] == 50


def test_a_deferred_write_runs_before_the_next_use(store):
    store.write_behind(
        lambda conn: conn.execute(
            "INSERT INTO access_tokens VALUES (?, ?, ?, ?, ?, ?)", ("late", "d", None, 0, None, "t")
        )
    )
    with store.locked() as conn:
        assert conn.execute("SELECT name FROM access_tokens").fetchall() == [("late",)]


def test_migrations_run_once_and_a_newer_store_is_refused(open_store):
    first = open_store((NOTES,))
    with first.write() as conn:
        conn.execute("INSERT INTO notes VALUES ('a', 'kept', 1)")
    upgraded = open_store((NOTES_V2,))
    assert upgraded.schema_versions() == {"notes": 2}
    with upgraded.locked() as conn:
        assert conn.execute("SELECT body, tag FROM notes").fetchall() == [("kept", None)]
    with pytest.raises(StorageUnavailableError, match="newer loci"):
        open_store((NOTES,))


def test_postgres_refuses_owners_without_postgres_tables(postgres_url):
    from loci.storage.databases.postgres.database import PostgresDatabase

    sqlite_only = Schema("later", ("CREATE TABLE later (x INTEGER);",))
    with pytest.raises(StorageUnavailableError, match="do not run on PostgreSQL yet: later"):
        PostgresDatabase(postgres_url, schemas=(sqlite_only,))


def test_a_claim_is_held_against_another_server_and_let_go_after(open_store):
    first, second = open_store(), open_store()
    with first.claim("story-import:novel") as held:
        assert held
        with second.claim("story-import:novel") as also:
            assert not also  # another server of the store is refused
        with second.claim("story-import:other") as other:
            assert other  # a claim holds its own name only
    with second.claim("story-import:novel") as after:
        assert after


HOLDER = """
import sys
from pathlib import Path
where = sys.argv[1]
if where.startswith("postgresql"):
    from loci.storage.databases.postgres.database import PostgresDatabase
    db = PostgresDatabase(where)
else:
    from loci.storage.databases.sqlite import SqliteDatabase
    db = SqliteDatabase(Path(where))
with db.claim("story-import:novel") as held:
    print("held" if held else "refused", flush=True)
    sys.stdin.read()  # until killed
"""


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_claim_ends_with_its_process_when_killed(request, tmp_path, kind):
    where = (
        str(tmp_path / "loci.db") if kind == "sqlite" else request.getfixturevalue("postgres_url")
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, where],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        if kind == "sqlite":
            store = SqliteDatabase(Path(where))
        else:
            from loci.storage.databases.postgres.database import PostgresDatabase

            store = PostgresDatabase(where)
        with store.claim("story-import:novel") as held:
            assert not held
    finally:
        holder.kill()
        holder.wait(timeout=60)
    # The server may see the connection end a moment after the process does: a bounded wait.
    deadline = time.monotonic() + 30
    while True:
        with store.claim("story-import:novel") as held:
            if held or time.monotonic() > deadline:
                break
    assert held
    store.close()

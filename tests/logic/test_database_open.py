"""Opening one database file from several processes at once, as client windows do at login."""

from __future__ import annotations

import multiprocessing
import sqlite3
from contextlib import closing
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from loci.storage.databases.schema import OWNED_VERSIONS
from loci.storage.databases.sqlite import SqliteDatabase
from loci.store import schemas

ROUNDS = 15
WAIT_SECONDS = 60.0


def _open_and_close(path: Path, start: Barrier, answers: Queue[str]) -> None:
    start.wait(WAIT_SECONDS)
    try:
        SqliteDatabase(path, busy_timeout_seconds=WAIT_SECONDS, schemas=schemas()).close()
    except Exception as exc:  # noqa: BLE001 - any failure is reported to the test
        answers.put(repr(exc))
    else:
        answers.put("opened")


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="needs fork to start fast"
)
def test_two_processes_creating_one_database_both_open_it(tmp_path: Path) -> None:
    # Both processes switching a new file to WAL at the same moment made one of them fail
    # with "database is locked" about one time in seven.
    context = multiprocessing.get_context("fork")
    for round_number in range(ROUNDS):
        path = tmp_path / f"round{round_number}" / "loci.db"
        start = context.Barrier(2)
        answers: Queue[str] = context.Queue()
        openers = [
            context.Process(target=_open_and_close, args=(path, start, answers)) for _ in range(2)
        ]
        for opener in openers:
            opener.start()
        results = [answers.get(timeout=WAIT_SECONDS) for _ in openers]
        for opener in openers:
            opener.join(WAIT_SECONDS)
        assert results == ["opened", "opened"], f"round {round_number}"
        with closing(sqlite3.connect(path)) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA user_version").fetchone()[0] == OWNED_VERSIONS

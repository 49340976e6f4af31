"""A full disk and a damaged database file: clear storage errors, nothing half-written, and
`loci doctor` / `loci reindex` to find and mend what can be mended."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from loci.app import App, build_app
from loci.errors import NotFoundError, StorageUnavailableError
from loci.faces.cli.admin import diagnose
from loci.faces.cli.output import CliState
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft
from tests.conftest import damage_table

FACTS = [
    "Kites fly high in the spring wind on the hill.",
    "The vegetable garden needs watering every evening.",
    "Piano lessons are on Tuesday after school.",
    "Bake the sourdough bread on Sunday morning.",
]


def remember_facts(app: App) -> list[str]:
    return app.memory.remember_batch([MemoryDraft(f, tags=["home"]) for f in FACTS]).ids


@contextmanager
def outside(app: App) -> Iterator[sqlite3.Connection]:
    """A connection of another program, changing the file behind loci's back."""
    conn = sqlite3.connect(app.db.path, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


def drop_from_keyword_index(conn: sqlite3.Connection, memory_id: str) -> None:
    """Take a memory's words out of the keyword index, and leave the memory."""
    seq, text = conn.execute(
        "SELECT seq, content FROM memories WHERE id = ?", (memory_id,)
    ).fetchone()
    conn.execute(
        "INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', ?, ?)",
        (seq, text),
    )


def count(app: App) -> int:
    return app.catalog.stats().total_memories


def test_a_full_disk_is_a_storage_error_and_writes_nothing(app):
    remember_facts(app)
    # SQLite's page limit makes the file "full" exactly as a full disk does (SQLITE_FULL).
    pages = app.db.connection.execute("PRAGMA page_count").fetchone()[0]
    app.db.connection.execute(f"PRAGMA max_page_count = {pages}")
    drafts = [MemoryDraft(f"memory {n} " + "word " * 400) for n in range(8)]
    with pytest.raises(StorageUnavailableError, match="is full") as caught:
        app.memory.remember_batch(drafts)
    assert caught.value.details["reason"] == "SQLITE_FULL"
    assert count(app) == len(FACTS)
    app.db.connection.execute("PRAGMA max_page_count = 1073741823")
    # The failed transaction is over: the next write goes through.
    assert app.memory.remember_batch(drafts[:3]).stored == 3
    assert count(app) == len(FACTS) + 3


def damage_memories_table(home: Path, embedder) -> None:
    """Store memories, close, and overwrite the first page of the memories table."""
    app = build_app(load_settings(home=home), embedder=embedder)
    app.memory.remember_batch([MemoryDraft(f"{fact} ({n})") for n in range(20) for fact in FACTS])
    app.close()  # the last connection folds the write-ahead log into the file
    damage_table(app.db.path, "memories")


def test_a_damaged_file_is_named_by_every_call_and_by_doctor(home, embedder):
    damage_memories_table(home, embedder)
    app = build_app(load_settings(home=home), embedder=embedder)
    try:
        calls = {
            "recall": lambda: app.memory.recall("kites"),
            "remember": lambda: app.memory.remember(MemoryDraft("one more")),
            "stats": lambda: app.catalog.stats(),
            "forget": lambda: app.memory.forget(namespace="default", dry_run=True),
            "export": lambda: app.transfer.export(),
        }
        for name, call in calls.items():
            with pytest.raises(StorageUnavailableError, match="is damaged") as caught:
                call()
            assert caught.value.details["reason"] == "SQLITE_CORRUPT", name
    finally:
        app.close()
    report = diagnose(CliState(config=None, home=home))
    assert report["checks"]["integrity"] == "damaged"
    assert len(report["problems"]) == 1
    assert report["problems"][0].startswith("the database file is damaged (")
    assert "Troubleshooting" in report["problems"][0]


def test_damaged_vectors_and_keyword_index_are_found_and_rebuilt(app, home):
    ids = remember_facts(app)
    with outside(app) as conn:
        vector_of = "(SELECT seq FROM memories WHERE id = ?)"
        conn.execute(
            f"UPDATE memory_vectors SET embedding = 'not a blob' WHERE seq = {vector_of}", (ids[0],)
        )
        conn.execute(f"DELETE FROM memory_vectors WHERE seq = {vector_of}", (ids[3],))  # missing
        nan = np.full(384, np.nan, dtype=np.float32).tobytes()
        conn.execute(
            f"UPDATE memory_vectors SET embedding = ? WHERE seq = {vector_of}", (nan, ids[1])
        )
        drop_from_keyword_index(conn, ids[2])
    # Searches go on without the damaged parts (before, a vector of the wrong size failed
    # every search with an internal error).
    assert ids[0] not in [m.id for m in app.memory.recall("kites", hybrid_alpha=1.0).memories]
    with pytest.raises(NotFoundError, match="vector is damaged"):
        app.memory.nearby(ids[0])
    assert app.memory.recall("piano", hybrid_alpha=0.0).total == 0
    problems = diagnose(CliState(config=None, home=home))["problems"]
    assert "damaged vectors in 3 memories; run `loci reindex`" in problems
    assert "the keyword index does not match the memories; run `loci reindex`" in problems

    report = app.transfer.reindex()
    assert report["damaged_vectors"] == report["re_embedded"] == 3
    assert diagnose(CliState(config=None, home=home))["problems"] == []
    assert app.memory.recall("kites", hybrid_alpha=1.0).memories[0].id == ids[0]
    assert app.memory.recall("garden watering", hybrid_alpha=1.0).memories[0].id == ids[1]
    assert app.memory.recall("piano", hybrid_alpha=0.0).memories[0].id == ids[2]
    assert app.memory.recall("sourdough bread", hybrid_alpha=1.0).memories[0].id == ids[3]


def test_damaged_tags_name_their_memory(app, home):
    ids = remember_facts(app)
    with outside(app) as conn:
        conn.execute("UPDATE memories SET tags = '[\"ho' WHERE id = ?", (ids[3],))
    with pytest.raises(StorageUnavailableError, match=f"memory {ids[3]} is damaged"):
        app.memory.recall("sourdough bread")
    problems = diagnose(CliState(config=None, home=home))["problems"]
    assert any(
        p.startswith("damaged tags or metadata (not JSON) in 1 memory,") and ids[3] in p
        for p in problems
    )
    assert app.memory.forget(ids[3]).deleted == 1
    assert app.memory.recall("sourdough bread").total == len(FACTS) - 1


@pytest.mark.parametrize(
    ("column", "value", "where"),
    [("tags", '{"a": 1}', "tags"), ("tags", "[3]", "tags.0"), ("metadata", "[1, 2]", "metadata")],
)
def test_json_of_the_wrong_shape_names_its_memory(app, column, value, where):
    ids = remember_facts(app)
    with outside(app) as conn:
        conn.execute(f"UPDATE memories SET {column} = ? WHERE id = ?", (value, ids[3]))
    damaged = f"memory {ids[3]} is damaged: {where}: "
    with pytest.raises(StorageUnavailableError, match=damaged):
        app.memory.recall("sourdough bread")
    with pytest.raises(StorageUnavailableError, match=damaged):
        app.memory.get(ids[3])
    assert app.memory.get(ids[2]).id == ids[2]


def test_reindex_brings_the_other_processes_up_to_date(app, second_app):
    ids = remember_facts(app)
    with outside(app) as conn:
        drop_from_keyword_index(conn, ids[2])
    # The other process mirrors the keyword index in memory (from 500 memories by default).
    second_app.engine.indexes.keywords.mirror.mirror_from = 1  # type: ignore[attr-defined]
    assert second_app.memory.recall("piano", hybrid_alpha=0.0).total == 0
    app.transfer.reindex()
    assert second_app.memory.recall("piano", hybrid_alpha=0.0).memories[0].id == ids[2]


def test_an_sqlite_too_old_for_loci_is_named(home, embedder, monkeypatch):
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 34, 1))
    monkeypatch.setattr(sqlite3, "sqlite_version", "3.34.1")
    with pytest.raises(StorageUnavailableError, match=r"needs SQLite 3\.35\.0 or newer.*3\.34\.1"):
        build_app(load_settings(home=home), embedder=embedder)

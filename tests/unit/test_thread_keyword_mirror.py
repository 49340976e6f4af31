"""The in-memory mirror of the conversation sessions' keyword documents answers exactly what
FTS5's bm25() search over `threads_fts` answers, and follows every write that rebuilds a
session's document: new turns, deleted and rewritten ones, renames, a rebuild, other processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.memory.ranking import fts_match
from loci.settings import load_settings
from loci.stores import keywords as keyword_module
from loci.stores import threads
from loci.stores.db import Database
from loci.stores.keywords import KeywordMirror
from tests.unit.test_keyword_mirror import QUERY_WORDS, Reader, mirrored, opened, sentences, store

__all__ = ["opened"]  # a fixture, used by name

TURNS_PER_SESSION = 8


def turn(index: int) -> dict[str, object]:
    """The metadata of the index-th turn: sessions of 8 turns in one conversation."""
    return {
        "conversation": "chat",
        "session_id": f"s{index // TURNS_PER_SESSION}",
        "speaker": "Ann" if index % 2 else "Bob",
        "timestamp": "2026-01-01T00:00:00.000000Z",
        "message_id": str(index),
    }


def store_turns(app: App, texts: list[str], first: int = 0) -> None:
    """Store texts as turns `first`, `first + 1`, ... of the chat, alternately in namespaces
    a and b (so each namespace holds its own sessions)."""
    store(app, texts, metadata=lambda i: turn(first + i))


def agree(reader: Reader, limit: int = 20) -> int:
    """Assert the mirror ranks the sessions as SQL does (same ones in the same order, same
    scores) for each query and namespace filter; returns how many results were compared."""
    compared = 0
    for namespaces in (None, frozenset({"a"}), frozenset({"b", "c"}), frozenset({"nowhere"})):
        with reader.db.snapshot() as conn:
            for words in QUERY_WORDS:
                match = fts_match(" ".join(words)) or ""
                expected = threads.keyword_search(conn, match, limit, namespaces)
                found = reader.sync.thread_keywords.search(conn, words, namespaces, limit)
                assert found is not None
                assert [thread for thread, _ in found] == list(expected), words
                scores = [-rank for _, rank in found]
                assert scores == pytest.approx(list(expected.values()), rel=1e-12)
                compared += len(found)
    return compared


def test_a_loaded_mirror_ranks_sessions_as_sql_does(app: App, opened: list[Database]) -> None:
    store_turns(app, sentences(600))
    reader = mirrored(app, opened)
    assert reader.sync.thread_keywords.loaded
    assert agree(reader) > 200


def test_it_follows_new_deleted_rewritten_and_moved_turns(app: App, opened: list[Database]) -> None:
    store_turns(app, sentences(600))
    reader = mirrored(app, opened)
    # New turns: some join the last sessions, others open new ones.
    store_turns(app, [*sentences(640)[600:], "Darcy wrote a letter to Jane"], first=596)
    with app.db.write() as conn:  # rewrite and delete turns behind loci's back
        conn.execute("UPDATE memories SET content = 'Bingley letter Darcy' WHERE seq IN (7, 601)")
        conn.execute("DELETE FROM memories WHERE seq IN (3, 9, 600, 602)")
        conn.execute("DELETE FROM memories WHERE seq BETWEEN 17 AND 32")  # whole sessions
    app.catalog.namespaces("rename", "b", "c")  # every session of b moves
    reader.sync.refresh()
    mirror = reader.sync.thread_keywords
    assert mirror.loaded and not mirror.needs_reload()
    assert agree(reader) > 200


def test_another_process_s_turns_reach_it(
    app: App, second_app: App, opened: list[Database]
) -> None:
    store_turns(app, sentences(600))
    reader = mirrored(app, opened)
    store_turns(second_app, ["Zebras and unicorns met Darcy"], first=600)
    reader.sync.refresh()
    with reader.db.snapshot() as conn:
        found = reader.sync.thread_keywords.search(conn, ["zebras"], None, 5)
        (thread,) = conn.execute("SELECT thread FROM conversation_turns WHERE seq = 601").fetchone()
    assert found is not None and [t for t, _ in found] == [thread]
    assert agree(reader) > 200


def test_a_rebuild_of_the_sessions_is_followed(
    app: App, opened: list[Database], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keyword_module, "RELOAD_MIN", 20)
    store_turns(app, sentences(600))
    reader = mirrored(app, opened)
    with app.db.write() as conn:
        threads.rebuild_all(conn)  # every session gets a new id
    reader.sync.refresh()
    assert agree(reader) > 200


def test_it_grows_into_a_mirror_and_small_chats_use_sql(app: App, opened: list[Database]) -> None:
    store_turns(app, sentences(100))
    reader = mirrored(app, opened, mirror_from=150)
    assert not reader.sync.thread_keywords.loaded
    with reader.db.snapshot() as conn:
        assert reader.sync.thread_keywords.search(conn, ["darcy"], None, 5) is None
    store_turns(app, sentences(200)[100:], first=100)
    reader.sync.refresh()
    assert reader.sync.thread_keywords.loaded
    assert agree(reader) > 100


def test_memories_that_are_not_turns_stay_out(app: App, opened: list[Database]) -> None:
    store_turns(app, sentences(600))
    store(app, ["Darcy Darcy Darcy, said a note that is no turn"])
    reader = mirrored(app, opened)
    assert agree(reader) > 200


def test_recall_ranks_the_same_with_and_without_the_mirror(home: Path, embedder) -> None:
    app = build_app(load_settings(home=home), embedder=embedder)
    try:
        store_turns(app, sentences(KeywordMirror().mirror_from + 50))
        app.memory.warm_up()
        mirror = app.engine.sync.thread_keywords
        assert mirror.loaded
        questions = ["Who will marry Mr. Bingley?", "What did Lydia do in Brighton?"]
        with_mirror = [app.memory.recall(q, 10, "a").memories for q in questions]
        mirror.unload()
        without = [app.memory.recall(q, 10, "a").memories for q in questions]
        assert [[m.id for m in r] for r in with_mirror] == [[m.id for m in r] for r in without]
        assert [[m.score for m in r] for r in with_mirror] == [
            [m.score for m in r] for r in without
        ]
    finally:
        app.close()

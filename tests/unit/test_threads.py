"""Conversation threads as keyword documents: kept in step with every write, and used by recall."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from loci.app import App
from loci.conversations.messages import parse_messages
from loci.memory import hybrid
from loci.memory.filters import compile_filter
from loci.memory.models import MemoryDraft
from loci.stores import memories as sql
from loci.stores.db import Database, _statements
from loci.stores.migrations import MIGRATIONS
from loci.stores.vector_index import Hit


def chat(*sessions: tuple[str, list[tuple[str, str]]]) -> list[dict[str, str]]:
    return [
        {"speaker": who, "text": text, "timestamp": "2024-03-01T10:00:00Z", "session_id": sid}
        for sid, turns in sessions
        for who, text in turns
    ]


GARDEN = (
    "garden",
    [
        ("Ana", "We finally dug the new beds."),
        ("Ben", "What are you planting first?"),
        ("Ana", "Tomatoes along the fence, and basil between them."),
    ],
)
BAND = ("band", [("Ben", "Our band plays on Saturday."), ("Ana", "I will bring my camera.")])


def turns(db: Database) -> dict[str, tuple[str, str | None]]:
    """memory content -> (session of its thread, speaker), from the turns table."""
    with db.locked() as conn:
        rows = conn.execute(
            "SELECT m.content, t.session, c.speaker FROM conversation_turns c "
            "JOIN memories m ON m.seq = c.seq JOIN conversation_threads t ON t.id = c.thread"
        ).fetchall()
    return {row[0]: (row[1], row[2]) for row in rows}


def documents(db: Database) -> dict[tuple[str, str, str], str]:
    """(namespace, conversation, session) -> the thread's keyword document."""
    with db.locked() as conn:
        rows = conn.execute(
            "SELECT t.namespace, t.conversation, t.session, f.content, t.stale "
            "FROM conversation_threads t LEFT JOIN threads_fts f ON f.rowid = t.id"
        ).fetchall()
    assert all(row[4] == 0 for row in rows)  # nothing left stale after a commit
    return {(row[0], row[1], row[2]): row[3] for row in rows}


def test_each_session_becomes_one_document_of_its_turns_in_order(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat(GARDEN, BAND)), "home", "c1")
    docs = documents(app.engine.db)
    assert set(docs) == {("home", "c1", "garden"), ("home", "c1", "band")}
    assert docs[("home", "c1", "garden")] == "\n".join(f"{who}: {text}" for who, text in GARDEN[1])


def test_documents_follow_deletes_renames_and_namespace_deletion(app: App) -> None:
    ids = app.conversations.remember_conversation(
        parse_messages(chat(GARDEN, BAND)), "home", "c1"
    ).ids
    app.memory.remember(MemoryDraft(content="Ana's bike needs new brakes.", namespace="home"))
    assert turns(app.engine.db)[f"Ben: {GARDEN[1][1][1]}"] == ("garden", "Ben")
    app.memory.forget(memory_id=ids[1])
    assert len(turns(app.engine.db)) == 4
    assert documents(app.engine.db)[("home", "c1", "garden")] == (
        "Ana: We finally dug the new beds.\nAna: Tomatoes along the fence, and basil between them."
    )
    app.memory.forget(filters={"metadata.session_id": "band"}, namespace="home")
    assert set(documents(app.engine.db)) == {("home", "c1", "garden")}
    app.catalog.namespaces("rename", "home", "house")
    assert set(documents(app.engine.db)) == {("house", "c1", "garden")}
    assert len(turns(app.engine.db)) == 2
    app.catalog.namespaces("delete", "house")
    assert documents(app.engine.db) == {} and turns(app.engine.db) == {}


def test_a_long_thread_is_kept_as_its_latest_turns(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    from loci.stores import threads

    monkeypatch.setattr(threads, "MAX_DOCUMENT_TURNS", 2)
    app.conversations.remember_conversation(parse_messages(chat(GARDEN)), "home", "c1")
    assert documents(app.engine.db)[("home", "c1", "garden")] == (
        "Ben: What are you planting first?\nAna: Tomatoes along the fence, and basil between them."
    )


def test_a_turn_edited_in_place_moves_to_its_new_thread(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat(GARDEN, BAND)), "home", "c1")
    with app.engine.db.write() as conn:
        conn.execute(
            "UPDATE memories SET content = 'Ana: Peppers too.', metadata = "
            "json_set(metadata, '$.session_id', 'band') WHERE content LIKE 'Ana: Tomatoes%'"
        )
    docs = documents(app.engine.db)
    assert turns(app.engine.db)["Ana: Peppers too."] == ("band", "Ana")
    assert len(turns(app.engine.db)) == 5
    assert "Tomatoes" not in docs[("home", "c1", "garden")]
    assert docs[("home", "c1", "band")] == (  # in the order the turns were stored
        "Ana: Peppers too.\nBen: Our band plays on Saturday.\nAna: I will bring my camera."
    )


def test_a_failed_write_leaves_the_documents_as_they_were(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat(GARDEN)), "home", "c1")
    before = documents(app.engine.db)
    try:
        with app.engine.db.write() as conn:
            conn.execute("DELETE FROM memories")
            raise RuntimeError("interrupted")
    except RuntimeError:
        pass
    assert documents(app.engine.db) == before


def test_upgrading_a_store_builds_the_documents_of_its_conversations(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:5]:
        for statement in _statements(script):
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 5")
    conn.execute("INSERT INTO namespaces VALUES ('home', '2024-01-01T00:00:00Z')")
    for seq, (who, text) in enumerate(GARDEN[1], start=1):
        conn.execute(
            "INSERT INTO memories(seq, id, namespace, content, content_hash, importance, source, "
            "metadata, created_at, updated_at, last_accessed, embedding) "
            "VALUES (?, ?, 'home', ?, '', 0.5, 'conversation', ?, '', '', '', x'00')",
            (
                seq,
                f"id{seq}",
                f"{who}: {text}",
                f'{{"conversation": "c1", "session_id": {seq % 2}}}',
            ),
        )
    conn.close()
    db = Database(path)
    try:
        docs = documents(db)
        speakers = turns(db)
    finally:
        db.close()
    assert speakers == {
        f"{who}: {text}": (str(n % 2), None) for n, (who, text) in enumerate(GARDEN[1], start=1)
    }
    assert docs == {
        ("home", "c1", "1"): "Ana: We finally dug the new beds.\n"
        "Ana: Tomatoes along the fence, and basil between them.",
        ("home", "c1", "0"): "Ben: What are you planting first?",
    }


def test_the_thread_lookups_use_their_indexes(app: App) -> None:
    from loci.stores import threads

    app.conversations.remember_conversation(parse_messages(chat(GARDEN)), "home", "c1")
    with app.engine.db.locked() as conn:
        plan = str(
            conn.execute(
                f"EXPLAIN QUERY PLAN {threads.LATEST_TURNS}", ("home", "c1", "garden", 10)
            ).fetchall()
        )
        assert "memories_thread" in plan and "TEMP B-TREE" not in plan
        seqs = [row[0] for row in conn.execute("SELECT seq FROM memories").fetchall()]
        found = sql.conversation_threads(conn, seqs, "1", [])
    assert len(set(found.thread_of.values())) == 1 and set(found.thread_of) == set(seqs)


def test_recall_lifts_the_turns_of_the_thread_the_question_matches_as_a_whole(app: App) -> None:
    ids = app.conversations.remember_conversation(
        parse_messages(chat(GARDEN, BAND)), "home", "c1"
    ).ids
    with app.engine.db.locked() as conn:
        garden, band = (sql.fetch_by_id(conn, ids[i])[0] for i in (1, 3))  # type: ignore[index]
        thread_ids = dict(conn.execute("SELECT session, id FROM conversation_threads").fetchall())
    index = app.engine.index()
    vector = index.get(garden)
    assert vector is not None

    def first(thread_keyword: dict[int, float]) -> int:
        # The same turn scores each time: only the threads' keyword scores change.
        found = hybrid.Candidates(
            vector=[Hit(garden, 0.5), Hit(band, 0.5)], keyword={}, thread_keyword=thread_keyword
        )
        query = np.zeros_like(vector)
        ranked = hybrid.rank(app.engine.db, index, query, found, compile_filter(None), 0.5)
        return next(ranked).key

    unlifted = first({})
    thread = {garden: thread_ids["garden"], band: thread_ids["band"]}
    other = band if unlifted == garden else garden
    assert first({thread[other]: 3.0, thread[unlifted]: 1.0}) == other
    assert first({thread[unlifted]: 3.0}) == unlifted


def test_the_thread_search_scores_whole_sessions(app: App) -> None:
    from loci.memory.ranking import fts_match
    from loci.stores import threads

    app.conversations.remember_conversation(parse_messages(chat(GARDEN, BAND)), "home", "c1")
    match = fts_match("what did Ana plant along the fence, tomatoes or basil?")
    assert match is not None
    with app.engine.db.locked() as conn:
        scores = threads.keyword_search(conn, match, 10)
        names = dict(conn.execute("SELECT id, session FROM conversation_threads").fetchall())
    assert [names[thread] for thread in scores] == ["garden", "band"]  # Ana spoke in both
    assert scores[next(iter(scores))] > 0


def test_the_in_memory_turns_agree_with_the_database(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat(GARDEN, BAND)), "home", "c1")
    app.conversations.remember_conversation(parse_messages(chat(BAND)), "work", "c2")
    app.memory.remember(MemoryDraft(content="Not a turn.", namespace="home"))
    app.engine.sync.refresh()
    directory = app.engine.sync.turns
    with app.engine.db.locked() as conn:
        seqs = [row[0] for row in conn.execute("SELECT seq FROM memories").fetchall()]
        from_sql = sql.conversation_threads(conn, seqs, "m.namespace IN (?)", ["home"])
        everything = sql.conversation_threads(conn, seqs, "1", [])
    assert len(directory) == 7
    assert directory.threads(seqs, frozenset({"home"})) == from_sql
    assert directory.threads(seqs, None) == everything
    assert len(set(everything.thread_of.values())) == 3
    assert everything.speaker_of[seqs[0]] == "Ana"


def test_the_in_memory_turns_follow_another_process(app: App, second_app: App) -> None:
    app.engine.sync.refresh()
    assert len(app.engine.sync.turns) == 0
    ids = second_app.conversations.remember_conversation(
        parse_messages(chat(GARDEN, BAND)), "home", "c1"
    ).ids
    app.memory.recall("tomatoes", namespace="home")  # a recall brings the mirror up to date
    assert len(app.engine.sync.turns) == 5
    with second_app.engine.db.write() as conn:
        conn.execute(
            "UPDATE memories SET metadata = json_set(metadata, '$.session_id', 'band', "
            "'$.speaker', 'Cleo') WHERE id = ?",
            (ids[0],),
        )
    second_app.memory.forget(memory_id=ids[4])
    app.engine.sync.refresh()
    with app.engine.db.locked() as conn:
        seqs = [row[0] for row in conn.execute("SELECT seq FROM memories").fetchall()]
        expected = sql.conversation_threads(conn, seqs, "1", [])
    moved = app.engine.sync.turns.threads(seqs, None)
    assert moved == expected and len(moved.thread_of) == 4
    assert moved.speaker_of[seqs[0]] == "Cleo"
    assert moved.thread_of[seqs[0]] == moved.thread_of[seqs[3]]  # now in the band session


def test_the_thread_search_keeps_to_the_namespaces_asked(app: App) -> None:
    from loci.memory.ranking import fts_match
    from loci.stores import threads

    app.conversations.remember_conversation(parse_messages(chat(GARDEN)), "home", "c1")
    app.conversations.remember_conversation(parse_messages(chat(GARDEN)), "work", "c1")
    match = fts_match("tomatoes and basil")
    assert match is not None
    with app.engine.db.locked() as conn:
        everywhere = threads.keyword_search(conn, match, 10)
        at_home = threads.keyword_search(conn, match, 10, frozenset({"home"}))
        home_ids = {
            row[0]
            for row in conn.execute(
                "SELECT id FROM conversation_threads WHERE namespace = 'home'"
            ).fetchall()
        }
    assert len(everywhere) == 2
    assert set(at_home) == home_ids and len(home_ids) == 1


def test_doctor_names_sessions_out_of_step_and_reindex_repairs_them(app: App) -> None:
    from loci.cli.admin import diagnose
    from loci.cli.output import CliState

    app.conversations.remember_conversation(parse_messages(chat(GARDEN, BAND)), "home", "c1")
    with app.engine.db.locked() as conn:  # damage the derived tables behind loci's back
        conn.execute("DELETE FROM threads_fts")
        conn.execute("DELETE FROM conversation_turns WHERE seq = (SELECT min(seq) FROM memories)")
    state = CliState(config=None, home=app.settings.home)
    report = diagnose(state)
    assert report["checks"]["conversation sessions"] == 2
    assert any("2 conversation sessions but 0 session documents" in p for p in report["problems"])
    assert any("5 conversation turns, but 4 are placed" in p for p in report["problems"])
    assert all("loci reindex" in p for p in report["problems"])
    assert app.transfer.reindex()["conversation_sessions"] == 2
    assert diagnose(state)["problems"] == []
    assert set(documents(app.engine.db)) == {("home", "c1", "garden"), ("home", "c1", "band")}
    assert len(turns(app.engine.db)) == 5


def test_another_process_follows_a_repair(app: App, second_app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat(GARDEN, BAND)), "home", "c1")
    with app.engine.db.locked() as conn:  # thread ids the repair will not give again
        conn.execute("UPDATE conversation_threads SET id = id + 100")
        conn.execute("UPDATE conversation_turns SET thread = thread + 100")
    second_app.engine.sync.refresh()
    seqs = [1, 2, 3, 4, 5]
    assert min(second_app.engine.sync.turns.threads(seqs, None).thread_of.values()) > 100
    app.transfer.reindex()
    second_app.engine.sync.refresh()
    with second_app.engine.db.locked() as conn:
        expected = sql.conversation_threads(conn, seqs, "1", [])
    assert max(expected.thread_of.values()) < 100
    assert second_app.engine.sync.turns.threads(seqs, None) == expected


def test_the_namespace_bound_thread_search_runs_the_full_text_query_once(app: App) -> None:
    from loci.stores import threads

    app.conversations.remember_conversation(parse_messages(chat(GARDEN)), "home", "c1")
    sql_text, params = threads.keyword_query('"basil"', 10, frozenset({"home", "work"}))
    with app.engine.db.locked() as conn:
        plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql_text}", params)]
    # The full-text table drives the join; each match then finds its thread by primary key
    # (driven from the threads table, FTS5 would run the MATCH once per thread).
    assert plan[0].startswith("SCAN f VIRTUAL TABLE")
    assert any("SEARCH t USING INTEGER PRIMARY KEY" in step for step in plan)

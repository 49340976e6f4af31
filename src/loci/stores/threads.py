"""Conversation threads as keyword documents: all the turns of one chat session, searched as one.

A question's words are often spread over several turns of the session that answers it, none of
which holds enough of them to rank well on its own. Ranking whole sessions by BM25 finds those,
and recall lifts the turns of the sessions that match (see `hybrid`).

The documents are derived data kept in step by the database itself: triggers (migration 6) mark
a thread stale whenever one of its turns is stored, changed or deleted, and
:func:`refresh_stale` rebuilds the marked threads just before each write transaction commits.
A thread is rebuilt once per transaction, not once per turn, from its latest
`MAX_DOCUMENT_TURNS` turns: storing one more turn in a session of any length then costs at most
~1 ms (about 1.5 us per turn read and indexed).
"""

from __future__ import annotations

import sqlite3

#: A turn's thread key, as migration 6 indexes it (the planner needs the same expressions).
CONVERSATION = "CAST(json_extract(metadata, '$.conversation') AS TEXT)"
SESSION = "coalesce(CAST(json_extract(metadata, '$.session_id') AS TEXT), '')"
IS_TURN = "json_extract(metadata, '$.conversation') IS NOT NULL"
#: A thread's document holds at most this many of its turns, the latest.
MAX_DOCUMENT_TURNS = 500
#: The latest turns of a thread (namespace, conversation, session, limit), newest first.
LATEST_TURNS = (
    f"SELECT content FROM memories INDEXED BY memories_thread WHERE namespace = ? "
    f"AND {CONVERSATION} = ? AND {SESSION} = ? AND {IS_TURN} ORDER BY seq DESC LIMIT ?"
)


def refresh_stale(conn: sqlite3.Connection) -> int:
    """Rebuild the documents of the threads marked stale (a thread left without turns is
    dropped); returns how many were rebuilt or dropped. Runs inside the caller's transaction."""
    stale = conn.execute(
        "SELECT id, namespace, conversation, session FROM conversation_threads "
        "INDEXED BY conversation_threads_stale WHERE stale = 1"
    ).fetchall()
    for thread, namespace, conversation, session in stale:
        turns = conn.execute(
            LATEST_TURNS, (namespace, conversation, session, MAX_DOCUMENT_TURNS)
        ).fetchall()
        conn.execute("DELETE FROM threads_fts WHERE rowid = ?", (thread,))
        if turns:
            body = "\n".join(row[0] for row in reversed(turns))
            conn.execute("INSERT INTO threads_fts(rowid, content) VALUES (?, ?)", (thread, body))
            conn.execute("UPDATE conversation_threads SET stale = 0 WHERE id = ?", (thread,))
        else:
            conn.execute("DELETE FROM conversation_threads WHERE id = ?", (thread,))
    return len(stale)


def keyword_search(
    conn: sqlite3.Connection, match: str, limit: int, namespaces: frozenset[str] | None = None
) -> dict[int, float]:
    """The best-matching threads (of `namespaces`, None for all), thread id -> BM25 score
    (larger is better)."""
    rows = conn.execute(*keyword_query(match, limit, namespaces)).fetchall()
    # bm25() is lower-is-better and negative for matches: flip it.
    return {int(thread): -float(rank) for thread, rank in rows}


def keyword_query(
    match: str, limit: int, namespaces: frozenset[str] | None
) -> tuple[str, list[object]]:
    """The SQL of :func:`keyword_search` and its parameters."""
    if namespaces is None:
        return (
            "SELECT rowid, bm25(threads_fts) AS rank FROM threads_fts "
            "WHERE threads_fts MATCH ? ORDER BY rank LIMIT ?",
            [match, limit],
        )
    # CROSS JOIN keeps the full-text search outside: as `rowid IN (...)`, or with the threads
    # table outside, FTS5 runs the MATCH once per thread (2-8 ms against 0.1-0.2 ms at 2.7k).
    marks = ",".join("?" * len(namespaces))
    return (
        "SELECT f.rowid, bm25(threads_fts) AS rank FROM threads_fts f "
        "CROSS JOIN conversation_threads t ON t.id = f.rowid "
        f"WHERE threads_fts MATCH ? AND t.namespace IN ({marks}) ORDER BY rank LIMIT ?",
        [match, *sorted(namespaces), limit],
    )


def rebuild_all(conn: sqlite3.Connection) -> int:
    """Rebuild the threads, their documents and the turns table from the memories (a repair,
    for `loci reindex`); returns how many threads there are. Every turn is logged as changed,
    so that other processes re-read where it sits (thread ids are given anew)."""
    for table in ("conversation_turns", "threads_fts", "conversation_threads"):
        conn.execute(f"DELETE FROM {table}")
    conn.execute(
        "INSERT INTO conversation_threads(namespace, conversation, session) "
        f"SELECT DISTINCT namespace, {CONVERSATION}, {SESSION} FROM memories WHERE {IS_TURN}"
    )
    conn.execute(
        "INSERT INTO conversation_turns(seq, thread, speaker) "
        "SELECT m.seq, t.id, json_extract(m.metadata, '$.speaker') FROM memories m "
        "JOIN conversation_threads t ON t.namespace = m.namespace "
        f"AND t.conversation = {_of_m(CONVERSATION)} AND t.session = {_of_m(SESSION)} "
        f"WHERE {_of_m(IS_TURN)}"
    )
    conn.execute(
        "INSERT INTO vector_log(memory_seq, op) SELECT seq, 'upsert' FROM conversation_turns"
    )
    return refresh_stale(conn)


def health(conn: sqlite3.Connection) -> tuple[int, list[str]]:
    """How many threads the store holds, and what is out of step with the memories."""
    threads, stale = conn.execute(
        "SELECT count(*), count(*) FILTER (WHERE stale = 1) FROM conversation_threads"
    ).fetchone()
    turns = conn.execute(f"SELECT count(*) FROM memories WHERE {IS_TURN}").fetchone()[0]
    placed = conn.execute("SELECT count(*) FROM conversation_turns").fetchone()[0]
    documents = conn.execute("SELECT count(*) FROM threads_fts").fetchone()[0]
    problems = []
    if stale:
        problems.append(f"{stale} conversation sessions wait for their documents")
    if documents != threads:
        problems.append(f"{threads} conversation sessions but {documents} session documents")
    if placed != turns:
        problems.append(f"{turns} conversation turns, but {placed} are placed in sessions")
    return int(threads), problems


def _of_m(expression: str) -> str:
    """A key expression over the memories row aliased `m`."""
    return expression.replace("(metadata", "(m.metadata")

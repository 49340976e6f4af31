"""Each sequence is one keyword document (its latest items' text), so that recall can tell
which sequences a question's words are spread over.

Triggers mark a sequence stale when its items change; :func:`refresh_stale` rebuilds the marked
documents before the writing transaction commits.
"""

from __future__ import annotations

from loci.storage.databases.db import Connection

#: A sequence's keyword document holds at most this many of its items, the latest.
MAX_DOCUMENT_ITEMS = 500


def refresh_stale(conn: Connection) -> int:
    """Rebuild the documents of the sequences marked stale (a sequence left without items is
    dropped); returns how many. Runs inside the caller's transaction."""
    stale = conn.execute("SELECT id FROM sequences INDEXED BY sequences_stale WHERE stale = 1")
    ids = [int(row[0]) for row in stale.fetchall()]
    for sequence in ids:
        texts = conn.execute(
            "SELECT m.content FROM sequence_items i JOIN memories m ON m.seq = i.seq "
            "WHERE i.sequence = ? ORDER BY i.position DESC, i.seq DESC LIMIT ?",
            (sequence, MAX_DOCUMENT_ITEMS),
        ).fetchall()
        conn.execute("DELETE FROM sequences_fts WHERE rowid = ?", (sequence,))
        if texts:
            body = "\n".join(row[0] for row in reversed(texts))
            conn.execute(
                "INSERT INTO sequences_fts(rowid, content) VALUES (?, ?)", (sequence, body)
            )
            conn.execute("UPDATE sequences SET stale = 0 WHERE id = ?", (sequence,))
        else:
            conn.execute("DELETE FROM sequences WHERE id = ?", (sequence,))
    return len(ids)


def keyword_search(
    conn: Connection, match: str, limit: int, namespaces: frozenset[str] | None
) -> dict[int, float]:
    """The sequences best matching the FTS5 expression `match` (of `namespaces`, None for
    all): sequence id -> BM25 score, larger is better."""
    if namespaces is None:
        rows = conn.execute(
            "SELECT rowid, bm25(sequences_fts) AS rank FROM sequences_fts "
            "WHERE sequences_fts MATCH ? ORDER BY rank LIMIT ?",
            (match, limit),
        )
    else:
        # CROSS JOIN keeps the full-text search outside: FTS5 then runs the MATCH once.
        marks = ",".join("?" * len(namespaces))
        rows = conn.execute(
            "SELECT f.rowid, bm25(sequences_fts) AS rank FROM sequences_fts f "
            "CROSS JOIN sequences s ON s.id = f.rowid "
            f"WHERE sequences_fts MATCH ? AND s.namespace IN ({marks}) ORDER BY rank LIMIT ?",
            [match, *sorted(namespaces), limit],
        )
    # bm25() is lower-is-better and negative for matches: flip it.
    return {int(sequence): -float(rank) for sequence, rank in rows.fetchall()}


def rebuild_documents(conn: Connection) -> int:
    """Rebuild every sequence's keyword document (a repair, for `loci reindex`); returns how
    many sequences there are."""
    conn.execute("DELETE FROM sequences_fts")
    conn.execute("UPDATE sequences SET stale = 1")
    return refresh_stale(conn)


def health(conn: Connection) -> tuple[int, list[str]]:
    """How many sequences the store holds, and what is out of step with their items."""
    count, stale = conn.execute(
        "SELECT count(*), count(*) FILTER (WHERE stale = 1) FROM sequences"
    ).fetchone()
    documents = conn.execute("SELECT count(*) FROM sequences_fts").fetchone()[0]
    return int(count), out_of_step(int(count), int(stale), int(documents))


def out_of_step(count: int, stale: int, documents: int) -> list[str]:
    """What is wrong with `count` sequences, `stale` of them waiting, and `documents`
    keyword documents (either engine's)."""
    problems = []
    if stale:
        problems.append(f"{stale} sequences wait for their keyword documents")
    if documents != count:
        problems.append(f"{count} sequences but {documents} sequence documents")
    return problems

"""Text to keyword terms, exactly as the FTS5 keyword index makes them.

The in-memory keyword mirror (`mirror`) must split, fold and stem text as `memories_fts`
does, or its scores would drift from SQLite's. Rather than re-implement the unicode61
tokenizer and the Porter stemmer, this asks SQLite: texts go into a scratch FTS5 table in the
connection's private temp schema, and its `fts5vocab` table lists the terms each became.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

#: The tokenizer of `memories_fts` (migration 1); a test holds the two together.
TOKENIZE = "porter unicode61 remove_diacritics 2"
SCRATCH = "loci_scratch_fts"
SCRATCH_TERMS = "loci_scratch_terms"
#: Texts tokenized per round trip (bounds the scratch table).
CHUNK = 2000
#: Query words whose terms are remembered; past this the memory starts afresh.
MAX_KNOWN_WORDS = 20_000


def create_scratch(conn: sqlite3.Connection) -> None:
    """Create the scratch tables, once per connection and outside any transaction (a table
    created inside a read transaction would vanish with its rollback)."""
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{SCRATCH} USING fts5(content, "
        f"tokenize='{TOKENIZE}')"
    )
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{SCRATCH_TERMS} "
        f"USING fts5vocab(temp, {SCRATCH}, 'instance')"
    )


def term_counts(
    conn: sqlite3.Connection, texts: Sequence[tuple[int, str]]
) -> dict[int, Counter[str]]:
    """How often each term occurs in each text, by the text's id (ids must be distinct).

    Needs :func:`create_scratch` on this connection; leaves the scratch table empty.
    """
    counts: dict[int, Counter[str]] = {key: Counter() for key, _ in texts}
    for start in range(0, len(texts), CHUNK):
        chunk = texts[start : start + CHUNK]
        conn.executemany(f"INSERT INTO temp.{SCRATCH}(rowid, content) VALUES (?, ?)", chunk)
        try:
            for key, term in conn.execute(f"SELECT doc, term FROM temp.{SCRATCH_TERMS}"):
                counts[key][term] += 1
        finally:
            conn.execute(f"DELETE FROM temp.{SCRATCH}")
    return counts


class TextTerms(NamedTuple):
    """A text's terms: how many tokens it has, and the offsets at which each term occurs."""

    tokens: int
    positions: dict[str, list[int]]


def term_positions(
    conn: sqlite3.Connection, texts: Sequence[tuple[int, str]]
) -> dict[int, TextTerms]:
    """Each text's terms with their token offsets (ascending), by the text's id.

    Needs :func:`create_scratch` on this connection; leaves the scratch table empty.
    """
    found: dict[int, dict[str, list[int]]] = {key: {} for key, _ in texts}
    for start in range(0, len(texts), CHUNK):
        chunk = texts[start : start + CHUNK]
        conn.executemany(f"INSERT INTO temp.{SCRATCH}(rowid, content) VALUES (?, ?)", chunk)
        try:
            rows = conn.execute(
                f'SELECT doc, term, "offset" FROM temp.{SCRATCH_TERMS} ORDER BY doc, "offset"'
            )
            for key, term, offset in rows:
                found[key].setdefault(term, []).append(int(offset))
        finally:
            conn.execute(f"DELETE FROM temp.{SCRATCH}")
    return {
        key: TextTerms(sum(len(offsets) for offsets in terms.values()), terms)
        for key, terms in found.items()
    }


class WordTerms:
    """The terms each query word becomes, remembered (queries repeat their words)."""

    def __init__(self, capacity: int = MAX_KNOWN_WORDS) -> None:
        self._capacity = capacity
        self._known: dict[str, tuple[str, ...]] = {}

    def of(self, conn: sqlite3.Connection, words: Sequence[str]) -> list[tuple[str, ...]]:
        """Each word's terms, in order (one for a plain word; none or several for others)."""
        missing = [word for word in dict.fromkeys(words) if word not in self._known]
        if missing:
            if len(self._known) + len(missing) > self._capacity:
                self._known.clear()
            found = term_counts(conn, list(enumerate(missing)))
            for index, word in enumerate(missing):
                # A word's terms in order of appearance do not matter here: only plain
                # one-term words are scored by the mirror.
                self._known[word] = tuple(found[index].elements())
        return [self._known[word] for word in words]


class Tokenizer:
    """A private in-memory SQLite that splits texts into terms as FTS5 does, for code that
    has no SQLite connection of its own at hand (PostgreSQL's keyword postings, a story's
    answers); used from any thread, one text batch at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    def positions(self, texts: Sequence[tuple[int, str]]) -> dict[int, TextTerms]:
        """Each text's terms with their token offsets (`term_positions`)."""
        with self._lock:
            return term_positions(self._scratch(), texts)

    def counts(self, texts: Sequence[tuple[int, str]]) -> dict[int, Counter[str]]:
        """How often each term occurs in each text (`term_counts`)."""
        with self._lock:
            return term_counts(self._scratch(), texts)

    def _scratch(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = sqlite3.connect(":memory:", check_same_thread=False)
            create_scratch(self._conn)
        return self._conn

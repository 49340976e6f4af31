"""The keyword index mirrored in memory, scoring BM25 as FTS5's bm25() does.

FTS5 computes bm25() row by row, for every memory that holds any of the query's words, before
it can pick the best 50: in a large store a question with one common word scores thousands of
rows, beside the embedding of the query on the same cores. This mirror holds each term's
postings (memory, occurrences) as numpy arrays read once from the index's `fts5vocab` tables,
and scores a query in a few vectorised passes with FTS5's statistics and formula, so it returns
what the SQL search returns, with the same scores.

Memories written since the mirror was read are kept aside, term by term, and the rows they
replace are masked; once they pass `RELOAD_SHARE` of the store the next refresh reads it anew.
Calls must hold the database lock (`IndexSync` and recall's search do).
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from loci.storage.databases.db import Connection
from loci.storage.indexes.derived import MemoryChanges, Progress
from loci.storage.indexes.keywords.fts_terms import WordTerms, create_scratch, term_counts
from loci.storage.indexes.keywords.postings import (
    MEMORIES,
    Documents,
    Postings,
    create_vocabularies,
    read_postings,
)
from loci.storage.indexes.name_codes import NameCodes
from loci.storage.indexes.seqsets import among

#: Stores smaller than this are searched by SQL alone, which is as fast there.
MIRROR_FROM = 500
#: Share of the mirrored memories that may change before it is read anew (at least RELOAD_MIN).
RELOAD_SHARE = 0.05
RELOAD_MIN = 500
#: FTS5's bm25() constants.
K1 = 1.2
B = 0.75

Floats = npt.NDArray[np.float64]
Positions = npt.NDArray[np.int64]
#: The documents of a mirror: their ids in increasing order, and the namespace of each.


@dataclass
class _Recent:
    """A memory written after the load: its namespace code, length and terms."""

    namespace: int
    length: int
    terms: Counter[str]


class KeywordMirror:
    """Postings of every document's terms (by default, every memory's), kept in step by
    `IndexSync`, searched by recall."""

    def __init__(
        self,
        mirror_from: int = MIRROR_FROM,
        documents: Documents = MEMORIES,
        words: WordTerms | None = None,
    ) -> None:
        self.mirror_from = mirror_from
        self._documents = documents
        self._base: Postings | None = None
        self._namespaces = NameCodes()
        self._rows = 0  # live memories in the base
        self._tokens = 0.0  # their tokens
        self._dead = 0
        self._recent: dict[int, _Recent] = {}
        self._recent_postings: dict[str, dict[int, int]] = {}
        self._recent_tokens = 0
        self._scratch: Floats = np.zeros(0)
        self._outdated = False  # too much changed to follow: read anew at the next refresh
        self._words = words if words is not None else WordTerms()

    @property
    def loaded(self) -> bool:
        """Whether searches are answered here (else by SQL)."""
        return self._base is not None

    def wanted(self, memories: int) -> bool:
        """Whether a store of this many memories should be mirrored."""
        return memories >= self.mirror_from

    def unload(self) -> None:
        """Drop everything (searches go back to SQL)."""
        self._base = None
        self._recent.clear()
        self._recent_postings.clear()
        self._rows, self._tokens, self._dead, self._recent_tokens = 0, 0.0, 0, 0
        self._scratch = np.zeros(0)
        self._outdated = False

    def prepare(self, conn: Connection) -> None:
        """The scratch and vocabulary tables it reads terms through (temp schema)."""
        create_scratch(_fts5(conn))
        create_vocabularies(_fts5(conn))

    def load(self, conn: Connection, progress: Progress | None = None) -> None:
        """Read every document's postings if the store is big enough to be worth it."""
        del progress
        if self.wanted(self._count(_fts5(conn))):
            self.read(_fts5(conn))
        else:
            self.unload()

    def apply(self, conn: Connection, changes: MemoryChanges) -> None:
        """Follow the changes, or read anew once that is cheaper or the store has grown big
        enough to be worth mirroring."""
        sqlite = _fts5(conn)
        stored = [(int(row[0]), str(row[1]), str(row[3])) for row in changes.stored]
        self.change(sqlite, stored, changes.gone)
        if self.needs_reload() or (not self.loaded and self.wanted(self._count(sqlite))):
            self.read(sqlite)

    def clear(self) -> None:
        """Drop everything (searches go back to SQL)."""
        self.unload()

    def _count(self, conn: sqlite3.Connection) -> int:
        return int(conn.execute(f"SELECT count(*) FROM ({self._documents.rows})").fetchone()[0])

    def read(self, conn: sqlite3.Connection) -> None:
        """Read every document's postings (inside a read transaction, after `prepare`). If
        the index reads inconsistently, stays unloaded."""
        self.unload()
        rows = conn.execute(self._documents.rows).fetchall()
        seqs = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        names = [row[1] for row in rows]
        del rows
        base = read_postings(conn, self._documents, seqs, self._namespaces.codes(names))
        if base is None:
            return
        self._base = base
        self._rows = len(names)
        self._tokens = float(base.lengths.sum())
        self._scratch = np.zeros(len(names))

    def needs_reload(self) -> bool:
        """Whether enough has changed since the load that reading anew is cheaper."""
        return self._base is not None and (
            self._outdated or self._dead + len(self._recent) > self._reload_after()
        )

    def change(
        self,
        conn: sqlite3.Connection,
        stored: Sequence[tuple[int, str, str]],
        gone: Collection[int],
    ) -> None:
        """Apply writes: `stored` (seq, namespace, content) memories were (re)written, `gone`
        ones deleted. Needs the scratch tables of `tokens` on this connection."""
        if self._base is None or self._outdated:
            return
        if self._dead + len(self._recent) + len(stored) + len(gone) > self._reload_after():
            self._outdated = True  # a bulk write: reading anew beats tokenizing each memory
            return
        for seq in [*gone, *(row[0] for row in stored)]:
            self._forget(seq)
        counts = term_counts(conn, [(seq, content) for seq, _, content in stored])
        for seq, namespace, _ in stored:
            terms = counts[seq]
            recent = _Recent(self._namespaces.code(namespace), sum(terms.values()), terms)
            self._recent[seq] = recent
            self._recent_tokens += recent.length
            for term, count in terms.items():
                self._recent_postings.setdefault(term, {})[seq] = count

    def search(
        self,
        conn: sqlite3.Connection,
        words: Sequence[str],
        namespaces: frozenset[str] | None,
        limit: int,
        within: npt.NDArray[np.int64] | None = None,
    ) -> list[tuple[int, float]] | None:
        """(seq, bm25) of the best matches of any of `words` among memories of `namespaces`
        (None: all) and, when given, among the seqs `within`; best (lowest bm25) first, ties
        by seq; exactly what FTS5 answers to the OR of the quoted words. None when the mirror
        cannot answer: not loaded, or a word is a phrase to FTS5 ("e_mail" is "e" then
        "mail"), which needs positions."""
        base = self._base
        if base is None or self._outdated:
            return None
        phrases = self._words.of(conn, words)
        if any(len(terms) != 1 for terms in phrases):
            return None
        total = self._rows + len(self._recent)
        if total == 0 or limit <= 0:
            return []
        average = (self._tokens + self._recent_tokens) / total
        terms = [phrase[0] for phrase in phrases]
        positions, counts, sizes = self._postings(base, terms)
        added = [self._recent_postings.get(term, {}) for term in terms]
        idf = [_idf(total, size + len(more)) for size, more in zip(sizes, added, strict=True)]
        if positions.shape[0]:
            # All terms' postings in one pass (a few numpy calls per query, not per term),
            # added to the scratch term by term, in the query's order, as FTS5 sums them.
            weights = np.repeat(idf, sizes) * (
                (counts * (K1 + 1.0))
                / (counts + K1 * (1 - B + B * base.lengths[positions] / average))
            )
            np.add.at(self._scratch, positions, weights)
        recent: dict[int, float] = {}
        for term_idf, more in zip(idf, added, strict=True):
            for seq, count in more.items():
                length = self._recent[seq].length
                weight = (count * (K1 + 1.0)) / (count + K1 * (1 - B + B * length / average))
                recent[seq] = recent.get(seq, 0.0) + term_idf * weight
        scored = sum(1 for size in sizes if size)
        touched = _touched(positions, scored, self._scratch)
        return self._best(base, touched, recent, namespaces, limit, within)

    def _best(
        self,
        base: Postings,
        positions: Positions,
        recent: dict[int, float],
        namespaces: frozenset[str] | None,
        limit: int,
        within: npt.NDArray[np.int64] | None,
    ) -> list[tuple[int, float]]:
        scores = self._scratch[positions]
        self._scratch[positions] = 0.0
        if namespaces is not None:
            allowed = self._namespaces.admitted(namespaces)
            admitted = allowed[base.namespaces[positions]]
            positions, scores = positions[admitted], scores[admitted]
            recent = {s: v for s, v in recent.items() if allowed[self._recent[s].namespace]}
        seqs = np.concatenate([base.seqs[positions], np.fromiter(recent, np.int64, len(recent))])
        scores = np.concatenate([scores, np.fromiter(recent.values(), np.float64, len(recent))])
        if within is not None:
            inside = among(seqs, within)
            seqs, scores = seqs[inside], scores[inside]
        if seqs.shape[0] > 4 * limit:
            # Ties at the cut-off stay in, so the order below is the same as sorting all.
            cut = np.partition(scores, seqs.shape[0] - limit)[seqs.shape[0] - limit]
            keep = scores >= cut
            seqs, scores = seqs[keep], scores[keep]
        order = np.lexsort((seqs, -scores))[:limit]
        return list(zip(seqs[order].tolist(), (-scores[order]).tolist(), strict=True))

    def _postings(
        self, base: Postings, terms: Sequence[str]
    ) -> tuple[Positions, Floats, list[int]]:
        """The live postings of `terms`, one term after the other: positions, counts, and
        how many belong to each term."""
        spans = [_span(base, term) for term in terms]
        if not any(end > start for start, end in spans):
            return np.zeros(0, np.int64), np.zeros(0), [0] * len(terms)
        positions = np.concatenate([base.positions[start:end] for start, end in spans])
        counts = np.concatenate([base.counts[start:end] for start, end in spans])
        sizes = [end - start for start, end in spans]
        if self._dead:
            alive = base.live[positions]
            positions, counts = positions[alive], counts[alive]
            ends = np.cumsum(sizes)
            before = np.concatenate(([0], np.cumsum(alive)))
            sizes = (before[ends] - before[ends - np.array(sizes)]).tolist()
        return positions.astype(np.int64), counts.astype(np.float64), sizes

    def _reload_after(self) -> float:
        size = 0 if self._base is None else self._base.seqs.shape[0]
        return max(RELOAD_MIN, RELOAD_SHARE * size)

    def _forget(self, seq: int) -> None:
        """Take a memory out (before it is stored again, or because it was deleted)."""
        recent = self._recent.pop(seq, None)
        if recent is not None:
            self._recent_tokens -= recent.length
            for term in recent.terms:
                del self._recent_postings[term][seq]
                if not self._recent_postings[term]:
                    del self._recent_postings[term]
            return
        base = self._base
        assert base is not None
        position = int(np.searchsorted(base.seqs, seq))
        if position < base.seqs.shape[0] and base.seqs[position] == seq and base.live[position]:
            base.live[position] = False
            self._dead += 1
            self._rows -= 1
            self._tokens -= float(base.lengths[position])


def _span(base: Postings, term: str) -> tuple[int, int]:
    """Where a term's postings lie in `base` (empty for a term it does not hold)."""
    index = base.terms.get(term)
    if index is None:
        return 0, 0
    return int(base.bounds[index]), int(base.bounds[index + 1])


def _touched(positions: Positions, terms: int, scratch: Floats) -> Positions:
    """The positions the query's terms scored (`positions`, `terms` of them one after the
    other), each once. Every score is positive (idf is floored above 0), so for long
    postings a scan of the scores beats sorting the positions."""
    if terms <= 1:
        return positions
    if positions.shape[0] * 8 > scratch.shape[0]:
        return np.flatnonzero(scratch)
    return np.unique(positions)


def _fts5(conn: Connection) -> sqlite3.Connection:
    """The SQLite connection a mirror reads FTS5 through (mirrors are built for SQLite only)."""
    if not isinstance(conn, sqlite3.Connection):
        raise TypeError("the keyword mirror follows a SQLite store's FTS5 index")
    return conn


def _idf(total: int, hits: int) -> float:
    """FTS5's inverse document frequency, floored at 1e-6 for terms in over half the rows."""
    if hits == 0:
        return 0.0
    idf = math.log((total - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0.0 else 1e-6

"""The vectors of the small namespaces, held in this process beside the HNSW index.

An HNSW graph built over a large namespace can leave a small one far from it unreachable, so a
search ranks the small namespaces exactly beside the index (see `postgres_namespace_sizes`). In the
database that ranking looks each of their memories up at every search; held here, it is one
product of a few thousand vectors. The passages of long memories are held so too while they
are few (`passages.postgres`), with no namespace counted large.

What is held is a derived index (`derived.DerivedIndex`) that `IndexSync` keeps in step with
the change log, as it does SQLite's: a search loads it first (which namespaces are small is
known only then, from the planner's statistics) and again when they change; the sync applies
every entry after that load, or has it loaded again when it fell behind. Writers take turns
(`database.WRITE_LOCK`), so the log's entries commit in the order of their numbers and none
is skipped.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from loci.storage.databases.db import Connection
from loci.storage.indexes.derived import MemoryChanges, Progress
from loci.storage.indexes.vectors.protocol import FloatMatrix, KeyArray
from loci.storage.memory_tables.change_log import change_log_head

#: (seq, distance) rows, as the database's exact search returns them: the distance is the
#: negative inner product.
Rows = list[tuple[int, float]]


@dataclass(frozen=True)
class _Held:
    """The held vectors: never changed in place, so a search reads one state whole."""

    seqs: npt.NDArray[np.int64]
    namespaces: npt.NDArray[np.int32]  # each row's namespace, as its number in `names`
    matrix: npt.NDArray[np.float32]
    names: dict[str, int]

    @classmethod
    def of(cls, rows: list[tuple[int, str, bytes]], dimensions: int) -> _Held:
        names: dict[str, int] = {}
        codes = [names.setdefault(namespace, len(names)) for _, namespace, _ in rows]
        matrix = np.frombuffer(b"".join(blob for _, _, blob in rows), dtype=np.float32)
        return cls(
            np.array([seq for seq, _, _ in rows], dtype=np.int64),
            np.array(codes, dtype=np.int32),
            matrix.reshape(len(rows), dimensions),
            names,
        )

    def without(self, seqs: list[int]) -> _Held:
        kept = ~np.isin(self.seqs, seqs)
        return _Held(self.seqs[kept], self.namespaces[kept], self.matrix[kept], self.names)

    def joined(self, other: _Held) -> _Held:
        names = dict(self.names)
        recoded = np.array(
            [names.setdefault(name, len(names)) for name in other.names], dtype=np.int32
        )
        return _Held(
            np.concatenate([self.seqs, other.seqs]),
            np.concatenate([self.namespaces, recoded[other.namespaces]]),
            np.concatenate([self.matrix, other.matrix]),
            names,
        )

    def nearest(self, query: FloatMatrix, k: int, namespaces: frozenset[str] | None) -> Rows:
        """The `k` rows of `namespaces` (None: all) nearest `query` (ties by seq)."""
        similarities = self.matrix @ query
        if namespaces is not None and not namespaces >= self.names.keys():
            codes = [self.names[name] for name in namespaces if name in self.names]
            similarities[~np.isin(self.namespaces, codes)] = -np.inf
        if similarities.shape[0] > k:  # the k best and any tied with the last of them
            cut = np.partition(similarities, -k)[-k]
            kept = np.flatnonzero((similarities >= cut) & (similarities > -np.inf))
        else:
            kept = np.flatnonzero(similarities > -np.inf)
        best = kept[np.lexsort((self.seqs[kept], -similarities[kept]))][:k]
        return [(int(self.seqs[i]), -float(similarities[i])) for i in best]

    @cached_property
    def rows_of(self) -> dict[int, list[int]]:
        """Each held seq's rows (a memory may have several passages)."""
        rows: dict[int, list[int]] = {}
        for row, seq in enumerate(self.seqs.tolist()):
            rows.setdefault(seq, []).append(row)
        return rows

    def best(self, query: FloatMatrix, keys: KeyArray) -> npt.NDArray[np.float64]:
        """Each key's best similarity to `query` (NaN for a key with no held vector)."""
        found = np.full(keys.shape[0], np.nan)
        positions: list[int] = []
        rows: list[int] = []
        for position, key in enumerate(keys.tolist()):
            for row in self.rows_of.get(key, ()):
                positions.append(position)
                rows.append(row)
        if rows:  # fmax over NaN keeps the number: each key's best row
            np.fmax.at(found, positions, (self.matrix[rows] @ query).astype(np.float64))
        return found


class SmallVectors:
    """The vectors of a table (one or more per memory) whose memories are outside the large
    namespaces, held and kept in step with the change log by `IndexSync` (see the module's
    docstring)."""

    def __init__(self, table: str, dimensions: int) -> None:
        self._table = table
        self._dimensions = dimensions
        self._lock = threading.Lock()
        self._held = _Held.of([], dimensions)
        self._large: frozenset[str] | None = None  # what the held vectors were loaded for
        self._position = -1  # the change-log entry they reflect (-1: not loaded)

    def prepare(self, conn: Connection) -> None:
        """Nothing to make on the connection."""
        del conn

    def load(self, conn: Connection, progress: Progress | None = None) -> None:
        """Read again what is held (nothing until a search asked: only a search knows which
        namespaces are small)."""
        del progress
        with self._lock:
            if self._large is not None:
                self._load(conn, self._large)

    def apply(self, conn: Connection, changes: MemoryChanges) -> None:
        """Follow the memories the change log names; when entries before `changes` were never
        seen (loaded from an older state than the sync had reached), load again at the next
        search."""
        with self._lock:
            if self._large is None or self._position >= changes.through:
                return
            if self._position < changes.since:
                self._large, self._position = None, -1
                return
            fresh = _Held.of(self._rows(conn, self._large, changes.touched), self._dimensions)
            self._held = self._held.without(changes.touched).joined(fresh)
            self._position = changes.through

    def nearest(
        self,
        conn: Connection,
        query: FloatMatrix,
        k: int,
        namespaces: frozenset[str] | None,
        large: frozenset[str],
    ) -> Rows:
        """The `k` vectors of `namespaces` (none of them in `large`; None: every namespace
        outside `large`) nearest `query`, as of the sync's last refresh (or of `conn`, when
        they are loaded now: rows read after the log's head may be newer than it, and applying
        an entry twice changes nothing)."""
        held = self._current(conn, large)
        return held.nearest(np.asarray(query, dtype=np.float32), k, namespaces)

    def merged(
        self, conn: Connection, query: FloatMatrix, k: int, large: frozenset[str], found: Rows
    ) -> Rows:
        """`found` (the rows of a search over every namespace) with the `k` held vectors
        nearest `query`: a held memory keeps its held row only, so that copies of one vector
        rank alike (ties by seq) whichever search found them (the database sums a product in
        another order, so its figure may differ in the last bit)."""
        held = self._current(conn, large)
        elsewhere = [row for row in found if row[0] not in held.rows_of]
        return elsewhere + held.nearest(np.asarray(query, dtype=np.float32), k, None)

    def best(
        self, conn: Connection, query: FloatMatrix, keys: KeyArray, large: frozenset[str]
    ) -> npt.NDArray[np.float64]:
        """Each key's best similarity to `query` among the vectors outside `large` (NaN for
        a key with none)."""
        held = self._current(conn, large)
        return held.best(np.asarray(query, dtype=np.float32), keys)

    def clear(self) -> None:
        """Drop what is held (loaded again at the next search that asks for it)."""
        with self._lock:
            self._held = _Held.of([], self._dimensions)
            self._large, self._position = None, -1

    def _current(self, conn: Connection, large: frozenset[str]) -> _Held:
        """What is held, loaded first if never loaded or loaded for other large namespaces."""
        with self._lock:
            if large != self._large:
                self._load(conn, large)
            return self._held

    def _load(self, conn: Connection, large: frozenset[str]) -> None:
        self._position = change_log_head(conn)
        self._held = _Held.of(self._rows(conn, large), self._dimensions)
        self._large = large

    def _rows(
        self, conn: Connection, large: frozenset[str], seqs: list[int] | None = None
    ) -> list[tuple[int, str, bytes]]:
        """The vectors outside the `large` namespaces (of `seqs` only, if given)."""
        among = "" if seqs is None else "AND v.seq = ANY(?)"
        rows = conn.execute(
            f"SELECT v.seq, m.namespace, v.embedding FROM {self._table} v "
            f"JOIN memories m ON m.seq = v.seq WHERE m.namespace <> ALL(?) {among}",
            [sorted(large), *([] if seqs is None else [seqs])],
        )
        return [(int(seq), str(namespace), bytes(blob)) for seq, namespace, blob in rows]

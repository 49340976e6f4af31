"""Keeps one process's in-memory indexes in step with the database.

Triggers append every vector change to `vector_log` in the writing transaction (and every
change of content, metadata or a filtered field). Before each search, :meth:`IndexSync.refresh`
applies the entries this process has not seen to the vector index, the memories' times, the
filter fields and the keyword mirror. It costs one `PRAGMA data_version` when nothing
changed. A process that fell behind a pruned log rebuilds
them all from the database.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from loci.heap import release_free_memory
from loci.storage import passages
from loci.storage.db import Database
from loci.storage.facets import Condition, MemoryFacets, metadata_fields, mirrored
from loci.storage.fts_terms import create_scratch
from loci.storage.keyword_index import KeywordIndex, MirroredKeywords
from loci.storage.keywords import DocumentList, KeywordMirror
from loci.storage.moments import MemoryTimes
from loci.storage.passages import PassageIndex
from loci.storage.postings import create_vocabularies
from loci.storage.timeline import MEMORY_TIME
from loci.storage.vector_index import VectorIndex

log = logging.getLogger("loci.store")

#: How many log entries to keep; older ones are pruned by writers.
LOG_KEEP = 50_000
LOAD_CHUNK = 10_000
#: Every memory, for a full load: (seq, namespace, embedding, time).
LOAD_ALL = (
    f"SELECT m.seq, m.namespace, v.embedding, {MEMORY_TIME} FROM memories m "
    "LEFT JOIN memory_vectors v ON v.seq = m.seq ORDER BY m.seq"
)

Progress = Callable[[int, int], None]


class IndexSync:
    """Owns the derived indexes of one process (vectors, memory times, filter fields, keyword
    postings) and the log position they have reached."""

    def __init__(
        self,
        db: Database,
        index: VectorIndex,
        dimensions: int,
        keywords: KeywordMirror | None = None,
    ) -> None:
        self._db = db
        self._index = index
        self._passages = PassageIndex(dimensions)
        self._times = MemoryTimes()
        self._facets = MemoryFacets()  # loaded on the first filter it can answer
        self._keywords = keywords if keywords is not None else KeywordMirror()
        self._keyword_index = MirroredKeywords(self._keywords)
        self._connection_ready = False
        self._dimensions = dimensions
        self._log_position = -1  # -1: never loaded
        self._data_version = -1
        self._own_writes = True
        self._lock = threading.Lock()

    @property
    def index(self) -> VectorIndex:
        """The index, as of the last refresh."""
        return self._index

    @property
    def passages(self) -> PassageIndex:
        """The passages of long memories, as of the last refresh."""
        return self._passages

    @property
    def times(self) -> MemoryTimes:
        """When each memory happened, as of the last refresh."""
        return self._times

    @property
    def facets(self) -> MemoryFacets:
        """The fields filters test, as of the last refresh (loaded once asked for)."""
        return self._facets

    @property
    def keyword_index(self) -> KeywordIndex:
        """The keyword index: the mirror in front of FTS5."""
        return self._keyword_index

    @property
    def keywords(self) -> KeywordMirror:
        """The keyword index mirrored in memory, as of the last refresh."""
        return self._keywords

    @property
    def position(self) -> int:
        """The change-log entry the indexes have reached (-1 before the first refresh)."""
        return self._log_position

    def note_own_write(self) -> None:
        """Call after this process commits vector changes (data_version misses our own)."""
        self._own_writes = True

    def refresh(self, condition: Condition | None = None) -> None:
        """Apply the changes committed since the last refresh, by any process; given a
        filter's `condition` the facets can hold, load them (and the metadata keys it tests)
        if they are not yet."""
        with self._lock:
            self._refresh()
            if condition is None or not mirrored(condition):
                return
            fields = metadata_fields(condition)
            if self._facets.loaded and fields <= self._facets.metadata_keys:
                return
            # Read after the log was applied: entries it has already seen are re-read as they
            # come (an update re-reads the rows), so nothing is missed.
            with self._db.snapshot() as conn:
                if not self._facets.loaded:
                    self._facets.load(conn)
                self._facets.hold_keys(conn, fields)

    def _refresh(self) -> None:
        version = self._db.data_version()
        if version == self._data_version and not self._own_writes:
            return
        self._prepare_connection()
        with self._db.snapshot() as conn:
            if self._log_position < 0 or self._fell_behind(conn):
                self._load_all(conn)
            else:
                self._apply_log(conn)
        self._data_version = version
        self._own_writes = False

    def rebuild(self, progress: Progress | None = None) -> int:
        """Rebuild the index from the memories table; returns how many vectors it holds."""
        with self._lock:
            self._prepare_connection()
            with self._db.snapshot() as conn:
                self._load_all(conn, progress)
            self._data_version = self._db.data_version()
            self._own_writes = False
            return self._index.count()

    def _prepare_connection(self) -> None:
        """The keyword mirror's temp tables, made once, outside any transaction."""
        if not self._connection_ready:
            with self._db.locked() as conn:
                create_scratch(conn)
                create_vocabularies(conn)
            self._connection_ready = True

    def _fell_behind(self, conn: sqlite3.Connection) -> bool:
        oldest = conn.execute("SELECT min(seq) FROM vector_log").fetchone()[0]
        return oldest is not None and oldest > self._log_position + 1

    def _load_all(self, conn: sqlite3.Connection, progress: Progress | None = None) -> None:
        self._log_position = change_log_head(conn)
        self._index.clear()
        self._passages.clear()
        self._passages.add(conn.execute(passages.ALL).fetchall())
        self._times.clear()
        if self._facets.loaded:
            self._facets.load(conn)
        total = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
        self._index.reserve(total)
        keep_documents = self._keywords.wanted(total)
        seqs: list[npt.NDArray[np.int64]] = []
        names: list[str] = []
        # One pass over the table feeds the vectors, the times and the keyword mirror's list
        # of memories: each pass reads every row, embedding included.
        done = 0
        cursor = conn.execute(LOAD_ALL)
        while rows := cursor.fetchmany(LOAD_CHUNK):
            self._upsert_rows(rows)
            self._times.add(rows, time_column=3)
            if keep_documents:  # arrays, not a tuple per memory: ~18 MB less at 100k
                seqs.append(np.fromiter((row[0] for row in rows), np.int64, len(rows)))
                names += [row[1] for row in rows]
            done += len(rows)
            if progress is not None:
                progress(done, total)
        documents = (np.concatenate(seqs) if seqs else np.zeros(0, np.int64), names)
        self._load_mirrors(conn, documents if keep_documents else None)
        release_free_memory()  # the rows read on the way

    def _load_mirrors(self, conn: sqlite3.Connection, documents: DocumentList | None) -> None:
        """Read the keyword mirror if the store is big enough for it: it takes its list of
        memories from `documents`, as the full load read them (None: not wanted)."""
        if documents is not None:
            self._keywords.load(conn, documents)
        else:
            self._keywords.unload()

    def _apply_log(self, conn: sqlite3.Connection) -> None:
        entries = conn.execute(
            "SELECT seq, memory_seq FROM vector_log WHERE seq > ? ORDER BY seq",
            (self._log_position,),
        ).fetchall()
        if not entries:
            return
        self._log_position = int(entries[-1][0])
        touched = sorted({int(memory_seq) for _, memory_seq in entries})
        present: set[int] = set()
        stored: list[tuple[int, str, str]] = []
        for chunk in _chunks(touched, 500):
            marks = ",".join("?" * len(chunk))
            rows = conn.execute(
                "SELECT m.seq, m.namespace, v.embedding, m.content FROM memories m "
                f"LEFT JOIN memory_vectors v ON v.seq = m.seq WHERE m.seq IN ({marks})",
                chunk,
            ).fetchall()
            present.update(int(row[0]) for row in rows)
            self._upsert_rows(rows)
            stored += [(int(row[0]), row[1], row[3]) for row in rows]
        gone = [seq for seq in touched if seq not in present]
        self._index.delete(gone)
        self._passages.drop_memories(touched)
        self._passages.add(passages.read_of(conn, sorted(present)))
        self._times.update(conn, touched)
        self._facets.update(conn, touched)
        _follow(conn, self._keywords, self._index.count(), stored, gone)

    def _upsert_rows(self, rows: Sequence[Sequence[Any]]) -> None:
        """Rows start (seq, namespace, embedding); further columns are ignored."""
        if not rows:
            return
        try:
            joined = b"".join(row[2] for row in rows)
        except TypeError:  # a value that is not a BLOB at all
            joined = b""
        if len(joined) != len(rows) * self._dimensions * 4:
            rows = self._whole_vectors(rows)
            joined = b"".join(row[2] for row in rows)
        vectors = np.frombuffer(joined, dtype=np.float32)
        self._index.upsert(
            [int(row[0]) for row in rows],
            vectors.reshape(len(rows), self._dimensions),
            [row[1] for row in rows],
        )

    def _whole_vectors(self, rows: Sequence[Sequence[Any]]) -> list[Sequence[Any]]:
        """The rows whose vector has the model's size. The others can only come from a
        damaged file: they are left out of the index (so one of them does not fail every
        search) until `loci reindex` embeds them again; `loci doctor` counts them."""
        size = self._dimensions * 4

        def is_whole(row: Sequence[Any]) -> bool:
            return isinstance(row[2], bytes) and len(row[2]) == size

        broken = [int(row[0]) for row in rows if not is_whole(row)]
        log.warning("%d damaged vectors left out of the index; run `loci reindex`", len(broken))
        self._index.delete(broken)
        return [row for row in rows if is_whole(row)]


def _follow(
    conn: sqlite3.Connection,
    mirror: KeywordMirror,
    size: int,
    stored: list[tuple[int, str, str]],
    gone: list[int],
) -> None:
    """Apply the changes to a keyword mirror, or (re)read it once that is cheaper or the
    store has grown big enough (`size` documents) to be worth mirroring."""
    mirror.change(conn, stored, gone)
    if mirror.needs_reload() or (not mirror.loaded and mirror.wanted(size)):
        mirror.load(conn)


def prune_log(conn: sqlite3.Connection) -> None:
    """Drop log entries older than the last `LOG_KEEP` (call inside a write transaction)."""
    head = change_log_head(conn)
    if head > LOG_KEEP:
        conn.execute("DELETE FROM vector_log WHERE seq <= ?", (head - LOG_KEEP,))


def reload_everywhere(conn: sqlite3.Connection) -> None:
    """Make every process rebuild its derived data at its next refresh (call inside a write
    transaction, after changes the log does not describe, such as a rebuilt keyword index).

    A process reloads when the log no longer holds the entry after its position. The log's
    seq never repeats (AUTOINCREMENT), so two entries for no memory are logged and all but the
    second dropped: even a process that had read everything misses the first.
    """
    for _ in range(2):
        conn.execute("INSERT INTO vector_log(memory_seq, op) VALUES (0, 'delete')")
    conn.execute("DELETE FROM vector_log WHERE seq < (SELECT max(seq) FROM vector_log)")


def change_log_head(conn: sqlite3.Connection) -> int:
    """The last entry of the change log (0 for none): it moves at every change of a memory."""
    value = conn.execute("SELECT max(seq) FROM vector_log").fetchone()[0]
    return int(value) if value is not None else 0


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]

"""The memory fields that recall filters test most, mirrored in memory.

SQLite has no index a general filter could use, and reading the memories a filter admits from
SQL costs several times the query's embedding in a large store (`benchmarks/README.md`). This
mirror keeps each memory's namespace, source, importance, creation and update times and tags as
numpy arrays (or sets, for tags), so that such a filter is a few vectorised passes.

Metadata keys are mirrored one by one, on the first filter that tests each (see
`metadata_values`: a code per memory for the value ``json_extract`` gives and its JSON type),
up to MAX_METADATA_KEYS of them; changes of metadata reach the log through migration 7's
trigger.

Only fields that change through the change log (`vector_log`) are mirrored: `last_accessed`
and `access_count` change at every recall without a log entry, and conditions on content are
left to SQL. A filter that tests any of those, or a metadata value only SQL can judge (see
`ValueCodes.table`), is answered by SQL as a whole (`matching` returns None). The mirror is
loaded on the first filter it could answer, and kept in step by `IndexSync` from then on.

Every answer must equal SQL's (`filters` compiles the same conditions to SQL): text compares as
SQLite's BINARY collation does (code point order, which UTF-8 byte order preserves), times as
the canonical strings they are stored as, tags through the `memory_tags` rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from loci.storage.databases import dialect
from loci.storage.databases.db import Connection
from loci.storage.indexes.derived import MemoryChanges, Progress
from loci.storage.indexes.name_codes import NameCodes
from loci.storage.memory_tables.conditions import Condition, Group
from loci.storage.memory_tables.metadata_values import COMPARE, NULL, ValueCodes

Seqs = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]

#: The fields this mirror answers for (`Test.field`).
MIRRORED = frozenset({"namespace", "source", "importance", "created_at", "updated_at", "tags"})
COLUMNS_READ = ("seq", "namespace", "source", "importance", "created_at", "updated_at")
COLUMNS = ", ".join(COLUMNS_READ)
#: Seqs re-read per query when following the log.
CHUNK = 500
#: Rows read at a time by a full load.
LOAD_CHUNK = 10_000
#: Metadata keys mirrored at most (each costs an int32 per memory and its distinct values);
#: a filter on a key beyond them goes to SQL.
MAX_METADATA_KEYS = 16


def mirrored(condition: Condition) -> bool:
    """Whether every test of `condition` is one this mirror can hold (metadata keys once
    `MemoryFacets.hold_keys` has read them)."""
    if isinstance(condition, Group):
        return all(mirrored(part) for part in condition.parts)
    return condition.field in MIRRORED or _is_metadata(condition.field)


def metadata_fields(condition: Condition) -> set[str]:
    """The ``metadata.*`` fields `condition` tests."""
    if isinstance(condition, Group):
        return set().union(*(metadata_fields(part) for part in condition.parts))
    return {condition.field} if _is_metadata(condition.field) else set()


def _is_metadata(field: str) -> bool:
    return field.startswith("metadata.")


@dataclass
class _Key:
    """A metadata key held: its distinct values, and the code of each memory's (by slot)."""

    values: ValueCodes
    codes: npt.NDArray[np.int32]


class MemoryFacets:
    """Per memory (by seq, kept sorted): namespace, source, importance, created_at,
    updated_at, the tags of each memory, and the value of each metadata key held. A deleted
    memory keeps its slot, marked dead, until the next full load."""

    def __init__(self) -> None:
        self._reset()
        # metadata field -> its values; the fields are kept across loads, which read them anew
        self._keys: dict[str, _Key] = {}

    @property
    def metadata_keys(self) -> frozenset[str]:
        """The metadata fields held."""
        return frozenset(self._keys)

    def _reset(self) -> None:
        self.loaded = False
        self._seqs: Seqs = np.zeros(0, np.int64)
        self._live: Mask = np.zeros(0, np.bool_)
        self._namespace = np.zeros(0, np.int32)
        self._source = np.zeros(0, np.int32)
        self._importance = np.zeros(0)
        self._created = np.zeros(0, "S1")
        self._updated = np.zeros(0, "S1")
        self._namespaces = NameCodes()
        self._sources = NameCodes()
        self._tagged: dict[str, set[int]] = {}  # tag -> seqs
        self._tags_of: dict[int, list[str]] = {}  # seq -> tags (tagged memories only)
        # tag -> its memories' slots, made on first use: turning a large set into slots is
        # slow, and filters repeat their tags.
        self._tag_slots: dict[str, npt.NDArray[np.intp]] = {}

    def prepare(self, conn: Connection) -> None:
        """Nothing to make."""
        del conn

    def load(self, conn: Connection, progress: Progress | None = None) -> None:
        """Read every memory's fields anew, if a filter has asked for them (they are read on
        the first filter they can judge: see `holder`)."""
        del progress
        if self.loaded:
            self.read(conn)

    def apply(self, conn: Connection, changes: MemoryChanges) -> None:
        """Read the changed memories' fields anew."""
        self.update(conn, changes.touched)

    def clear(self) -> None:
        """Drop every memory's fields (the metadata keys held are kept)."""
        self._reset()

    def holder(self, condition: Condition | None) -> Callable[[Connection], None] | None:
        """What reads the fields `condition` tests that are not held yet (None: nothing to
        read), for `IndexSync.refresh` to run once the indexes are up to date."""
        if condition is None or not mirrored(condition):
            return None
        fields = metadata_fields(condition)
        if self.loaded and fields <= self.metadata_keys:
            return None

        def hold(conn: Connection) -> None:
            if not self.loaded:
                self.read(conn)
            self.hold_keys(conn, fields)

        return hold

    def read(self, conn: Connection) -> None:
        """Read every memory's fields, tags and held metadata keys (inside a read
        transaction)."""
        self._reset()
        self._keys = {field: _Key(ValueCodes(), np.zeros(0, np.int32)) for field in self._keys}
        select, paths = self._select(conn)
        cursor = conn.execute(f"{select} ORDER BY seq", paths)
        # A chunk at a time: the rows of 100k memories as Python objects took ~40 MB at once.
        while rows := cursor.fetchmany(LOAD_CHUNK):
            self._merge(dialect.sqlite_json_values(conn, rows, len(COLUMNS_READ)))
        for tag, seq in conn.execute("SELECT tag, memory_seq FROM memory_tags"):
            self._add_tag(int(seq), tag)
        self.loaded = True

    def hold_keys(self, conn: Connection, fields: set[str]) -> None:
        """Read the values of these ``metadata.*`` fields not held yet, within the limit
        (after `load`, inside a read transaction)."""
        for field in sorted(fields - self._keys.keys()):
            if len(self._keys) >= MAX_METADATA_KEYS:
                return
            path = dialect.metadata_key_path(conn, field)
            rows = conn.execute(
                f"SELECT seq, {dialect.metadata_value(conn)} FROM memories", (path, path)
            ).fetchall()
            values = ValueCodes()
            codes = np.full(self._seqs.shape[0], NULL, np.int32)
            seqs = np.fromiter((row[0] for row in rows), np.int64, len(rows))
            found = np.fromiter(
                (
                    values.code(dialect.sqlite_json_value(conn, row[1], row[2]), row[2])
                    for row in rows
                ),
                np.int32,
                len(rows),
            )
            # Rows written since the log was applied have no slot yet: the next update
            # reads them, this key included.
            slots = self._slots(seqs)
            codes[slots[slots >= 0]] = found[slots >= 0]
            self._keys[field] = _Key(values, codes)

    def _select(self, conn: Connection) -> tuple[str, list[Any]]:
        """The query of COLUMNS and of the held metadata keys' values, and its parameters."""
        paths = [dialect.metadata_key_path(conn, field) for field in self._keys for _ in range(2)]
        extracts = "".join(f", {dialect.metadata_value(conn)}" for _ in self._keys)
        return f"SELECT {COLUMNS}{extracts} FROM memories", paths

    def update(self, conn: Connection, seqs: Sequence[int]) -> None:
        """Re-read these seqs: present memories are (re)stored, deleted ones marked dead."""
        if not self.loaded or not seqs:
            return
        slots = self._slots(np.asarray(seqs, dtype=np.int64))
        self._live[slots[slots >= 0]] = False
        for seq in seqs:
            self._drop_tags(seq)
        rows: list[tuple[Any, ...]] = []
        tags: list[tuple[str, int]] = []
        select, paths = self._select(conn)
        for start in range(0, len(seqs), CHUNK):
            chunk = list(seqs[start : start + CHUNK])
            marks = ",".join("?" * len(chunk))
            rows += conn.execute(f"{select} WHERE seq IN ({marks})", [*paths, *chunk])
            tags += conn.execute(
                f"SELECT tag, memory_seq FROM memory_tags WHERE memory_seq IN ({marks})", chunk
            )
        # One merge for all chunks: each merge that appends copies every array once.
        self._merge(dialect.sqlite_json_values(conn, rows, len(COLUMNS_READ)))
        for tag, seq in tags:
            self._add_tag(int(seq), tag)

    def matching(self, condition: Condition, namespaces: frozenset[str] | None) -> Seqs | None:
        """Seqs (ascending) of the memories of `namespaces` (None: all) that meet
        `condition`; None when not loaded or when the condition tests a field not held."""
        if not self.loaded or not self._holds(condition):
            return None
        judged = self._mask(condition)
        if judged is None:
            return None
        mask = self._live & judged
        if namespaces is not None:
            mask &= self._namespaces.admitted(namespaces)[self._namespace]
        return self._seqs[mask]

    def _holds(self, condition: Condition) -> bool:
        return mirrored(condition) and metadata_fields(condition) <= self._keys.keys()

    def _mask(self, condition: Condition) -> Mask | None:
        """Which slots meet `condition` (None: a metadata value only SQL can judge)."""
        if isinstance(condition, Group):
            masks: list[Mask] = []
            for part in condition.parts:
                mask = self._mask(part)
                if mask is None:
                    return None
                masks.append(mask)
            join = np.logical_and if condition.joiner == "and" else np.logical_or
            return join.reduce(masks) if len(masks) > 1 else masks[0]
        field, op, value = condition.field, condition.op, condition.value
        if field == "tags":
            return self._tag_mask(op, value)
        if field == "namespace":
            return _named(self._namespaces, self._namespace, op, value)
        if field == "source":
            return _named(self._sources, self._source, op, value)
        if field == "importance":
            return _compared(self._importance, op, value)
        if _is_metadata(field):
            key = self._keys[field]
            table = key.values.table(op, value)
            return None if table is None else table[key.codes]
        column = self._created if field == "created_at" else self._updated
        encoded = [v.encode() for v in value] if isinstance(value, list) else value.encode()
        return _compared(column, op, encoded)

    def _tag_mask(self, op: str, value: Any) -> Mask:
        """Has the tag (contains / eq), any of them (in); ne and nin negate."""
        mask = np.zeros(self._seqs.shape[0], np.bool_)
        for tag in value if isinstance(value, list) else [value]:
            mask[self._slots_tagged(tag)] = True
        return ~mask if op in ("ne", "nin") else mask

    def _slots_tagged(self, tag: str) -> npt.NDArray[np.intp]:
        slots = self._tag_slots.get(tag)
        if slots is None:
            seqs = self._tagged.get(tag, set())
            found = self._slots(np.fromiter(seqs, np.int64, len(seqs)))
            slots = self._tag_slots[tag] = found[found >= 0]
        return slots

    def _merge(self, rows: list[tuple[Any, ...]]) -> None:
        """Store rows (COLUMNS) by seq: in place where the slot exists, appended otherwise."""
        if not rows:
            return
        count = len(rows)
        seqs = np.fromiter((row[0] for row in rows), np.int64, count)
        namespace = np.fromiter((self._namespaces.code(r[1]) for r in rows), np.int32, count)
        source = np.fromiter((self._sources.code(r[2]) for r in rows), np.int32, count)
        importance = np.fromiter((row[3] for row in rows), np.float64, count)
        created = np.array([row[4].encode() for row in rows], dtype=np.bytes_)
        updated = np.array([row[5].encode() for row in rows], dtype=np.bytes_)
        self._created = _wide_enough(self._created, created)
        self._updated = _wide_enough(self._updated, updated)
        # Each held key's value and JSON type follow COLUMNS in each row, in the order of `_keys`.
        keys = [
            (key, np.fromiter((key.values.code(r[col], r[col + 1]) for r in rows), np.int32, count))
            for col, key in zip(
                range(len(COLUMNS_READ), len(COLUMNS_READ) + 2 * len(self._keys), 2),
                self._keys.values(),
                strict=True,
            )
        ]
        slots = self._slots(seqs)
        old, new = slots >= 0, slots < 0
        at = slots[old]
        for key, codes in keys:
            key.codes[at] = codes[old]
        self._live[at] = True
        self._namespace[at], self._source[at] = namespace[old], source[old]
        self._importance[at], self._created[at], self._updated[at] = (
            importance[old],
            created[old],
            updated[old],
        )
        if new.any():
            self._append(seqs[new], namespace[new], source[new], importance[new])
            self._created = np.concatenate([self._created, created[new]])
            self._updated = np.concatenate([self._updated, updated[new]])
            for key, codes in keys:
                key.codes = np.concatenate([key.codes, codes[new]])
            self._keep_sorted()

    def _append(
        self,
        seqs: Seqs,
        namespace: npt.NDArray[np.int32],
        source: npt.NDArray[np.int32],
        importance: npt.NDArray[np.float64],
    ) -> None:
        self._seqs = np.concatenate([self._seqs, seqs])
        self._live = np.concatenate([self._live, np.ones(seqs.shape[0], np.bool_)])
        self._namespace = np.concatenate([self._namespace, namespace])
        self._source = np.concatenate([self._source, source])
        self._importance = np.concatenate([self._importance, importance])

    def _keep_sorted(self) -> None:
        """New seqs are nearly always larger than every known one; sort when one is not."""
        if not np.any(self._seqs[1:] < self._seqs[:-1]):
            return
        order = np.argsort(self._seqs, kind="stable")
        self._tag_slots.clear()  # slots move
        self._seqs, self._live = self._seqs[order], self._live[order]
        self._namespace, self._source = self._namespace[order], self._source[order]
        self._importance = self._importance[order]
        self._created, self._updated = self._created[order], self._updated[order]
        for key in self._keys.values():
            key.codes = key.codes[order]

    def _slots(self, seqs: Seqs) -> npt.NDArray[np.intp]:
        """Each seq's slot, or -1."""
        if self._seqs.shape[0] == 0:
            return np.full(seqs.shape[0], -1, dtype=np.intp)
        slots = np.minimum(np.searchsorted(self._seqs, seqs), self._seqs.shape[0] - 1)
        return np.where(self._seqs[slots] == seqs, slots, -1)

    def _add_tag(self, seq: int, tag: str) -> None:
        self._tagged.setdefault(tag, set()).add(seq)
        self._tags_of.setdefault(seq, []).append(tag)
        self._tag_slots.pop(tag, None)

    def _drop_tags(self, seq: int) -> None:
        for tag in self._tags_of.pop(seq, []):
            self._tag_slots.pop(tag, None)
            members = self._tagged[tag]
            members.discard(seq)
            if not members:
                del self._tagged[tag]


def _named(names: NameCodes, codes: npt.NDArray[np.int32], op: str, value: Any) -> Mask:
    """A text condition judged once per distinct name, then looked up by code."""
    test = _text_test(op, value)
    table = np.array([test(name) for name in names.names] + [False], dtype=np.bool_)
    return table[codes]


def _text_test(op: str, value: Any) -> Callable[[str], bool]:
    if op == "in":
        return frozenset(value).__contains__
    if op == "nin":
        excluded = frozenset(value)
        return lambda name: name not in excluded
    if op == "contains":
        return lambda name: value in name  # SQL's instr(name, value) > 0
    compare = COMPARE[op]
    return lambda name: bool(compare(name, value))


def _compared(column: npt.NDArray[Any], op: str, value: Any) -> Mask:
    if op in ("in", "nin"):
        kind = np.bytes_ if column.dtype.kind == "S" else np.float64
        inside = np.isin(column, np.asarray(value, dtype=kind))
        return ~inside if op == "nin" else inside
    result: Mask = COMPARE[op](column, value)
    return result


def _wide_enough(column: npt.NDArray[Any], values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """`column`, widened if needed so that `values` fit (numpy cuts longer bytes short)."""
    if values.dtype.itemsize <= column.dtype.itemsize:
        return column
    return column.astype(values.dtype)

"""Copy a whole store from a data folder into a PostgreSQL database, or back.

The source is only read (SQLite opened read-only, PostgreSQL in read-only transactions). Rows
go over in batches, each committed with what the target's triggers and hooks derive from it
(keyword postings, sequence documents, the change log); vectors go as they are, never embedded
again. A copy that stops half-way is resumed by running it again: the target carries a mark of
its source until the copy is verified, tables with an integer key go on from the highest key
already there, and every other row is inserted unless present. At the end both sides are
compared table by table, by row count and by a digest of every row's content.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from loci.errors import ConflictError
from loci.migration.tables import TABLES, Table
from loci.storage.databases.db import Connection, Database
from loci.storage.databases.dialect import dialect_of
from loci.storage.databases.vector_blob import VectorBlob
from loci.storage.memory_tables.memories import MIGRATING_FROM

#: Rows copied per transaction.
BATCH = 1_000
#: The target's mark of an unfinished copy (a `meta` key; its value names the source).
MARK = MIGRATING_FROM
#: Tables whose integer key the target continues after (PostgreSQL identities).
IDENTITIES = {
    "memories": "seq",
    "sequences": "id",
    "passages": "id",
    **{
        f"story_{name}": "id"
        for name in (
            "sessions", "pieces", "chunks", "reliefs", "passages", "threads", "names",
            "corrections",
        )
    },
}  # fmt: skip

#: Told of progress: (what, done, total).
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class TableCheck:
    """One table after the copy: rows on each side, and whether their contents are equal."""

    table: str
    source_rows: int
    target_rows: int
    same: bool


@dataclass
class MigrationReport:
    """What a migration did and found."""

    source: str
    target: str
    tables: list[TableCheck] = field(default_factory=list)
    blobs: int = 0

    @property
    def verified(self) -> bool:
        """Whether every table arrived whole and unchanged."""
        return all(check.same for check in self.tables)


@dataclass(frozen=True)
class Source:
    """The store copied from: a read-only connection, its checkpoint payloads by digest, and
    its name as the user is told it."""

    name: str
    conn: Connection
    blob: Callable[[str], bytes]


@dataclass(frozen=True)
class Target:
    """The store copied into, how it keeps a checkpoint payload, and how it keeps (and
    indexes) a story passage's text."""

    db: Database
    put_blob: Callable[[bytes], str]
    add_text: Callable[[Connection, int, str], None]


def migrate(source: Source, into: Target, progress: Progress) -> MigrationReport:
    """Copy everything of `source` into `into` (empty, or holding an unfinished copy of the
    same source), then verify."""
    target = into.db
    _claim(target, source.name)
    report = MigrationReport(source.name, target.location)
    for table in TABLES:
        _copy(source, target, table, progress)
    _copy_texts(source, into, progress)
    if target.engine == "postgresql":
        _continue_identities(target)
    report.blobs = _copy_blobs(source, target, into.put_blob, progress)
    report.tables = [_compare(source, target, table) for table in TABLES]
    report.tables.append(_compare_texts(source, target))
    if report.verified:
        with target.write() as conn:
            conn.execute("DELETE FROM meta WHERE key = ?", (MARK,))
    return report


def _claim(target: Database, source: str) -> None:
    """Mark the target as this source's copy; refuse a target that holds another store."""
    with target.write() as conn:
        mark = conn.execute("SELECT value FROM meta WHERE key = ?", (MARK,)).fetchone()
        if mark is not None and mark[0] != source:
            raise ConflictError(
                f"the target holds an unfinished copy of another store ({mark[0]}); "
                "migrate into an empty database",
                target=target.location,
            )
        held = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        others = conn.execute("SELECT count(*) FROM checkpoint_sessions").fetchone()[0]
        if mark is None and (held or others):
            raise ConflictError(
                f"{target.location} already holds a store ({held} memories); loci migrates "
                "into an empty database (or data folder) only, so that nothing is overwritten",
                target=target.location,
            )
        conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
            (MARK, source),
        )


def _copy(source: Source, target: Database, table: Table, progress: Progress) -> None:
    total = int(source.conn.execute(f"SELECT count(*) FROM {table.name}").fetchone()[0])
    after = _resume_point(target, table)
    done = 0
    for rows in _batches(source, table, after):
        with target.write() as conn:
            conn.executemany(_insert(table), [_as_stored(table, row) for row in rows])
        done += len(rows)
        progress(table.name, done, total)
    progress(table.name, total, total)


def _resume_point(target: Database, table: Table) -> tuple[Any, ...] | None:
    """Where a resumed copy of a counted table goes on from (None: from the start)."""
    if not table.counted:
        return None
    with target.locked() as conn:
        highest = conn.execute(f"SELECT max({table.key[0]}) FROM {table.name}").fetchone()[0]
    return None if highest is None else (highest,)


def _batches(source: Source, table: Table, after: tuple[Any, ...] | None) -> Iterator[list[Any]]:
    """The source's rows in key order, a batch at a time (each read on its own, so that a
    large table is never held whole)."""
    columns = ", ".join(f'"{name}"' for name in table.columns)
    keys = ", ".join(f'"{name}"' for name in table.key)
    positions = [table.columns.index(name) for name in table.key]
    while True:
        where, params = "", []
        if after is not None:
            where = f"WHERE ({keys}) > ({', '.join('?' * len(after))})"
            params = list(after)
        rows = source.conn.execute(
            f"SELECT {columns} FROM {table.name} {where} ORDER BY {keys} LIMIT ?",
            [*params, BATCH],
        ).fetchall()
        if not rows:
            return
        yield rows
        after = tuple(rows[-1][position] for position in positions)


def _insert(table: Table) -> str:
    columns = ", ".join(f'"{name}"' for name in (*table.columns, *dict(table.fixed)))
    marks = ", ".join(["?"] * len(table.columns) + [value for _, value in table.fixed])
    return f"INSERT INTO {table.name} ({columns}) VALUES ({marks}) ON CONFLICT DO NOTHING"


def _as_stored(table: Table, row: Sequence[Any]) -> tuple[Any, ...]:
    """A row as the target stores it: vectors as `VectorBlob`s."""
    if not table.vectors:
        return tuple(row)
    return tuple(
        VectorBlob(bytes(value)) if name in table.vectors and value is not None else value
        for name, value in zip(table.columns, row, strict=True)
    )


def _continue_identities(target: Database) -> None:
    """New rows of the target get keys after the copied ones."""
    with target.write() as conn:
        for table, column in IDENTITIES.items():
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"(SELECT coalesce(max({column}), 0) + 1 FROM {table}), false)"
            )


def _copy_blobs(
    source: Source, target: Database, put_blob: Callable[[bytes], str], progress: Progress
) -> int:
    """Every checkpoint payload the checkpoints refer to (checked against its digest as it
    is read)."""
    with target.locked() as conn:
        digests = sorted({str(row[0]) for row in conn.execute("SELECT blob FROM checkpoints")})
    for done, digest in enumerate(digests, start=1):
        put_blob(source.blob(digest))
        progress("checkpoint payloads", done, len(digests))
    return len(digests)


def _texts_of(conn: Connection) -> tuple[str, str]:
    """Where a store keeps its story passages' texts: (FROM clause, key column)."""
    if dialect_of(conn) == "postgresql":
        return "story_passage_texts t", "t.id"
    return "story_passages_fts t JOIN story_passages p ON p.id = t.rowid", "t.rowid"


def _copy_texts(source: Source, into: Target, progress: Progress) -> None:
    """The story passages' texts, indexed for keyword search as the target indexes them."""
    where, key = _texts_of(source.conn)
    with into.db.locked() as conn:
        target_where, target_key = _texts_of(conn)
        after = conn.execute(f"SELECT coalesce(max({target_key}), 0) FROM {target_where}")
        last = int(after.fetchone()[0])
    total = int(source.conn.execute(f"SELECT count(*) FROM {where}").fetchone()[0])
    done = 0
    while rows := source.conn.execute(
        f"SELECT {key}, t.text FROM {where} WHERE {key} > ? ORDER BY {key} LIMIT ?",
        (last, BATCH),
    ).fetchall():
        with into.db.write() as conn:
            for passage_id, text in rows:
                into.add_text(conn, int(passage_id), str(text))
        last, done = int(rows[-1][0]), done + len(rows)
        progress("story passage texts", done, total)


def _compare_texts(source: Source, target: Database) -> TableCheck:
    where, key = _texts_of(source.conn)
    source_rows, source_digest = _rows_digest(
        source.conn.execute(f"SELECT {key}, t.text FROM {where}")
    )
    with target.locked() as conn:
        target_where, target_key = _texts_of(conn)
        target_rows, target_digest = _rows_digest(
            conn.execute(f"SELECT {target_key}, t.text FROM {target_where}")
        )
    same = source_rows == target_rows and source_digest == target_digest
    return TableCheck("story passage texts", source_rows, target_rows, same)


def _compare(source: Source, target: Database, table: Table) -> TableCheck:
    source_rows, source_digest = _digest(source.conn, table)
    with target.locked() as conn:
        target_rows, target_digest = _digest(conn, table, skip_mark=True)
    same = source_rows == target_rows and source_digest == target_digest
    return TableCheck(table.name, source_rows, target_rows, same)


def _digest(conn: Connection, table: Table, skip_mark: bool = False) -> tuple[int, str]:
    """How many rows a table holds, and one digest of all their contents whatever their
    order (each engine orders texts by its own collation)."""
    columns = ", ".join(f'"{name}"' for name in table.columns)
    where = f"WHERE key <> '{MARK}'" if skip_mark and table.name == "meta" else ""
    return _rows_digest(conn.execute(f"SELECT {columns} FROM {table.name} {where}"))


def _rows_digest(rows: Iterable[Sequence[Any]]) -> tuple[int, str]:
    digests = sorted(hashlib.sha256(_canonical(row).encode("utf-8")).digest() for row in rows)
    return len(digests), hashlib.sha256(b"".join(digests)).hexdigest()


def _canonical(row: Sequence[Any]) -> str:
    return json.dumps(
        [
            value.hex() if isinstance(value, bytes | bytearray | memoryview) else value
            for value in row
        ],
        ensure_ascii=False,
    )

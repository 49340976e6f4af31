"""SQL for checkpoint sessions and checkpoints. Rows in, rows out; no rules."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from loci.storage.databases.db import Connection

COLUMNS = (
    "id, session_id, seq, created_at, context_hash, size_bytes, stored_bytes, blob, encrypted, "
    "key_id, critical, metadata, report, base_id, depth, stored_hash"
)


@dataclass(frozen=True)
class CheckpointRow:
    """One checkpoint's metadata (its payload is the blob)."""

    id: str
    session_id: str
    seq: int
    created_at: str
    context_hash: str
    size_bytes: int
    stored_bytes: int
    blob: str
    encrypted: bool
    key_id: str | None
    critical: bool
    metadata_json: str
    report_json: str
    base_id: str | None = None  # stored as changes to this checkpoint's document
    depth: int = 0  # links from a checkpoint stored whole
    stored_hash: str | None = None  # SHA-256 of the document as stored (None: older rows)


@dataclass(frozen=True)
class SessionRow:
    """A checkpoint session with its counts."""

    id: str
    workflow_id: str | None
    created_at: str
    last_saved_at: str
    pins: list[str]
    checkpoints: int
    stored_bytes: int


def session(conn: Connection, session_id: str) -> SessionRow | None:
    """One session, with how many checkpoints it holds."""
    rows = _sessions(conn, "WHERE s.id = ?", [session_id], 1, 0)
    return rows[0] if rows else None


def session_exists(conn: Connection, session_id: str) -> bool:
    """Whether a session is known (cheaper than :func:`session`)."""
    found = conn.execute("SELECT 1 FROM checkpoint_sessions WHERE id = ?", (session_id,))
    return found.fetchone() is not None


def sessions(conn: Connection, limit: int, offset: int) -> list[SessionRow]:
    """Sessions, most recently saved first."""
    return _sessions(conn, "", [], limit, offset)


def count_sessions(conn: Connection) -> int:
    """How many sessions there are."""
    return int(conn.execute("SELECT count(*) FROM checkpoint_sessions").fetchone()[0])


def ensure_session(conn: Connection, session_id: str, workflow_id: str | None, now: str) -> None:
    """Create the session if new, and record a save."""
    conn.execute(
        "INSERT INTO checkpoint_sessions(id, workflow_id, created_at, last_saved_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET last_saved_at = excluded.last_saved_at",
        (session_id, workflow_id, now, now),
    )


def pins(conn: Connection, session_id: str) -> list[str]:
    """The keys pinned as CRITICAL in a session (none if the session is new)."""
    row = conn.execute("SELECT pins FROM checkpoint_sessions WHERE id = ?", (session_id,))
    found = row.fetchone()
    return [] if found is None else list(json.loads(found[0]))


def set_pins(conn: Connection, session_id: str, pins: list[str]) -> None:
    """The keys pinned as CRITICAL for a session's later saves."""
    conn.execute(
        "UPDATE checkpoint_sessions SET pins = ? WHERE id = ?", (json.dumps(pins), session_id)
    )


def latest(conn: Connection, session_id: str) -> CheckpointRow | None:
    """A session's newest checkpoint."""
    row = conn.execute(
        f"SELECT {COLUMNS} FROM checkpoints WHERE session_id = ? ORDER BY seq DESC LIMIT 1",
        (session_id,),
    ).fetchone()
    return None if row is None else _checkpoint(row)


def checkpoint(conn: Connection, checkpoint_id: str) -> CheckpointRow | None:
    """One checkpoint by id."""
    row = conn.execute(
        f"SELECT {COLUMNS} FROM checkpoints WHERE id = ?", (checkpoint_id,)
    ).fetchone()
    return None if row is None else _checkpoint(row)


def page(
    conn: Connection, session_id: str, limit: int, offset: int
) -> list[tuple[str, str, int, int, int, str]]:
    """A page of a session's checkpoints, newest first: (id, created_at, size_bytes,
    stored_bytes, critical, metadata JSON)."""
    return conn.execute(
        "SELECT id, created_at, size_bytes, stored_bytes, critical, metadata FROM checkpoints "
        "WHERE session_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?",
        (session_id, limit, offset),
    ).fetchall()


def count(conn: Connection, session_id: str) -> int:
    """How many checkpoints a session holds."""
    row = conn.execute("SELECT count(*) FROM checkpoints WHERE session_id = ?", (session_id,))
    return int(row.fetchone()[0])


def total_stored(conn: Connection) -> int:
    """Bytes of every checkpoint's blob (shared blobs counted once per checkpoint)."""
    return int(conn.execute("SELECT coalesce(sum(stored_bytes), 0) FROM checkpoints").fetchone()[0])


def next_seq(conn: Connection, session_id: str) -> int:
    """The sequence number of a session's next checkpoint."""
    row = conn.execute("SELECT max(seq) FROM checkpoints WHERE session_id = ?", (session_id,))
    value = row.fetchone()[0]
    return 1 if value is None else int(value) + 1


def insert(conn: Connection, row: CheckpointRow) -> None:
    """Add a checkpoint (inside a write transaction)."""
    conn.execute(
        f"INSERT INTO checkpoints({COLUMNS}) VALUES ({', '.join('?' * 16)})",
        (
            row.id,
            row.session_id,
            row.seq,
            row.created_at,
            row.context_hash,
            row.size_bytes,
            row.stored_bytes,
            row.blob,
            int(row.encrypted),
            row.key_id,
            int(row.critical),
            row.metadata_json,
            row.report_json,
            row.base_id,
            row.depth,
            row.stored_hash,
        ),
    )


def removable(conn: Connection, session_id: str | None, limit: int) -> list[CheckpointRow]:
    """Oldest first: checkpoints that cleanup may delete (not critical, not a session's newest)."""
    scope = "AND c.session_id = ?" if session_id is not None else ""
    params: list[Any] = [session_id] if session_id is not None else []
    rows = conn.execute(
        f"SELECT {', '.join('c.' + c.strip() for c in COLUMNS.split(','))} FROM checkpoints c "
        "WHERE c.critical = 0 AND c.seq < (SELECT max(seq) FROM checkpoints n "
        f"WHERE n.session_id = c.session_id) {scope} ORDER BY c.created_at, c.seq LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [_checkpoint(row) for row in rows]


def delete(conn: Connection, checkpoint_ids: list[str]) -> None:
    """Remove checkpoints' rows (their blobs are removed once nothing refers to them)."""
    conn.executemany("DELETE FROM checkpoints WHERE id = ?", [(i,) for i in checkpoint_ids])


def dependents(conn: Connection, checkpoint_ids: list[str]) -> list[CheckpointRow]:
    """Checkpoints stored as changes to one of `checkpoint_ids` (and not among them)."""
    going = set(checkpoint_ids)
    found: list[CheckpointRow] = []
    for start in range(0, len(checkpoint_ids), 500):  # within SQLite's limit of bound values
        chunk = checkpoint_ids[start : start + 500]
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM checkpoints WHERE base_id IN ({', '.join('?' * len(chunk))})",
            chunk,
        ).fetchall()
        found += [row for row in map(_checkpoint, rows) if row.id not in going]
    return found


def make_whole(
    conn: Connection, checkpoint_id: str, digest: str, size: int, key: str | None
) -> None:
    """Point a checkpoint at a blob that holds its whole document (no base any more)."""
    conn.execute(
        "UPDATE checkpoints SET blob = ?, stored_bytes = ?, key_id = ?, base_id = NULL, "
        "depth = 0 WHERE id = ?",
        (digest, size, key, checkpoint_id),
    )


def blob_in_use(conn: Connection, digest: str) -> bool:
    """Whether any checkpoint still refers to a blob."""
    return (
        conn.execute("SELECT 1 FROM checkpoints WHERE blob = ? LIMIT 1", (digest,)).fetchone()
        is not None
    )


def all_blobs(conn: Connection) -> set[str]:
    """Every blob a checkpoint refers to."""
    return {row[0] for row in conn.execute("SELECT DISTINCT blob FROM checkpoints")}


def encrypted_rows(conn: Connection) -> list[CheckpointRow]:
    """Every encrypted checkpoint (for key rotation)."""
    rows = conn.execute(f"SELECT {COLUMNS} FROM checkpoints WHERE encrypted = 1").fetchall()
    return [_checkpoint(row) for row in rows]


def set_blob(conn: Connection, checkpoint_id: str, digest: str, key: str, size: int) -> None:
    """Point a checkpoint at its re-encrypted blob."""
    conn.execute(
        "UPDATE checkpoints SET blob = ?, key_id = ?, stored_bytes = ? WHERE id = ?",
        (digest, key, size, checkpoint_id),
    )


def _sessions(
    conn: Connection, where: str, params: list[Any], limit: int, offset: int
) -> list[SessionRow]:
    rows = conn.execute(
        "SELECT s.id, s.workflow_id, s.created_at, s.last_saved_at, s.pins, "
        "(SELECT count(*) FROM checkpoints c WHERE c.session_id = s.id), "
        "(SELECT coalesce(sum(stored_bytes), 0) FROM checkpoints c WHERE c.session_id = s.id) "
        f"FROM checkpoint_sessions s {where} ORDER BY s.last_saved_at DESC, s.id LIMIT ? OFFSET ?",
        [*params, limit, offset],
    ).fetchall()
    return [
        SessionRow(r[0], r[1], r[2], r[3], json.loads(r[4]), int(r[5]), int(r[6])) for r in rows
    ]


def _checkpoint(row: tuple[Any, ...]) -> CheckpointRow:
    return CheckpointRow(
        id=row[0],
        session_id=row[1],
        seq=int(row[2]),
        created_at=row[3],
        context_hash=row[4],
        size_bytes=int(row[5]),
        stored_bytes=int(row[6]),
        blob=row[7],
        encrypted=bool(row[8]),
        key_id=row[9],
        critical=bool(row[10]),
        metadata_json=row[11],
        report_json=row[12],
        base_id=row[13],
        depth=int(row[14]),
        stored_hash=row[15],
    )

"""The cleanup policy that keeps checkpoints within their quotas.

Past `max_per_session` checkpoints in a session, or past `max_total_bytes` in all, the oldest
checkpoints that are neither marked critical nor a session's newest are removed, oldest first.
"""

from __future__ import annotations

from loci.errors import StorageQuotaExceededError
from loci.storage.databases.db import Connection
from loci.toolsets.checkpoints import store as sql

#: Most candidates one cleanup considers for the total-size quota.
MAX_CANDIDATES = 100_000


def make_room(
    conn: Connection, row: sql.CheckpointRow, max_per_session: int, max_total_bytes: int
) -> list[sql.CheckpointRow]:
    """What must go for `row` to be added (inside the write transaction); raises
    StorageQuotaExceededError, changing nothing, when cleanup cannot make room."""
    removed: list[sql.CheckpointRow] = []
    excess = sql.count(conn, row.session_id) + 1 - max_per_session
    if excess > 0:
        removed = sql.removable(conn, row.session_id, excess)
        if len(removed) < excess:
            raise StorageQuotaExceededError(
                f"session {row.session_id} holds {max_per_session} checkpoints, all critical or "
                "newest; delete some or raise LOCI_CHECKPOINT_MAX_PER_SESSION",
                session_id=row.session_id,
            )
    over = sql.total_stored(conn) + row.stored_bytes - max_total_bytes
    removed = _oldest_until(conn, over, removed)
    if over - sum(r.stored_bytes for r in removed) > 0:
        raise StorageQuotaExceededError(
            f"checkpoints would take more than {max_total_bytes} bytes and cleanup cannot free "
            "enough (run `loci checkpoints gc`, or raise LOCI_CHECKPOINT_MAX_TOTAL_BYTES)",
            limit=max_total_bytes,
        )
    return removed


def over_quota(
    conn: Connection, max_per_session: int, max_total_bytes: int
) -> list[sql.CheckpointRow]:
    """What the policy removes now (after the limits were lowered, say)."""
    removed: list[sql.CheckpointRow] = []
    for session in sql.sessions(conn, 1_000_000, 0):
        excess = session.checkpoints - max_per_session
        if excess > 0:
            removed += sql.removable(conn, session.id, excess)
    return _oldest_until(conn, sql.total_stored(conn) - max_total_bytes, removed)


def _oldest_until(
    conn: Connection, over: int, removed: list[sql.CheckpointRow]
) -> list[sql.CheckpointRow]:
    """`removed` plus the oldest removable checkpoints until `over` bytes are freed."""
    over -= sum(r.stored_bytes for r in removed)
    if over <= 0:
        return removed
    chosen = list(removed)
    taken = {r.id for r in removed}
    for candidate in sql.removable(conn, None, MAX_CANDIDATES):
        if over <= 0:
            break
        if candidate.id not in taken:
            chosen.append(candidate)
            over -= candidate.stored_bytes
    return chosen

"""The change log (`vector_log`): triggers append an entry for every change of a memory, in
the writing transaction; each process's derived indexes follow it (`storage.indexes.sync`)."""

from __future__ import annotations

from loci.storage.databases.db import Connection

#: How many log entries to keep; older ones are pruned by writers.
LOG_KEEP = 50_000


def prune_log(conn: Connection) -> None:
    """Drop log entries older than the last `LOG_KEEP` (call inside a write transaction)."""
    head = change_log_head(conn)
    if head > LOG_KEEP:
        conn.execute("DELETE FROM vector_log WHERE seq <= ?", (head - LOG_KEEP,))


def reload_everywhere(conn: Connection) -> None:
    """Make every process rebuild its derived data at its next refresh (call inside a write
    transaction, after changes the log does not describe, such as a rebuilt keyword index).

    A process reloads when the log no longer holds the entry after its position. The log's
    seq never repeats (AUTOINCREMENT), so two entries for no memory are logged and all but the
    second dropped: even a process that had read everything misses the first.
    """
    for _ in range(2):
        conn.execute("INSERT INTO vector_log(memory_seq, op) VALUES (0, 'delete')")
    conn.execute("DELETE FROM vector_log WHERE seq < (SELECT max(seq) FROM vector_log)")


def fell_behind(conn: Connection, position: int) -> bool:
    """Whether entries after `position` were pruned from the log (or it was reset by
    `reload_everywhere`): what follows the log from there must load everything anew."""
    oldest = conn.execute("SELECT min(seq) FROM vector_log").fetchone()[0]
    return oldest is not None and oldest > position + 1


def change_log_head(conn: Connection) -> int:
    """The last entry of the change log (0 for none): it moves at every change of a memory."""
    value = conn.execute("SELECT max(seq) FROM vector_log").fetchone()[0]
    return int(value) if value is not None else 0

"""SQLite failures of the file or the machine, as errors a user can act on.

A damaged file, a full disk or a failing one are not bugs in loci's SQL: they reach the user
as `storage_unavailable` errors saying what happened and what to do, rather than as internal
errors (MCP) or tracebacks (CLI). Everything else SQLite raises stays what it is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from loci.errors import StorageUnavailableError

#: What to tell the user, by SQLite's primary result code; `{path}` and `{reason}` are filled in.
ADVICE = {
    sqlite3.SQLITE_CORRUPT: (
        "the database {path} is damaged ({reason}); `loci doctor` shows how far, and the "
        "Troubleshooting section of docs/configuration.md how to restore a backup"
    ),
    sqlite3.SQLITE_FULL: "the disk holding {path} is full ({reason}); free some space, try again",
    sqlite3.SQLITE_IOERR: "the database {path} could not be read or written ({reason})",
    sqlite3.SQLITE_READONLY: (
        "the database {path} cannot be written ({reason}); check that it and its folder are "
        "writable"
    ),
    sqlite3.SQLITE_CANTOPEN: "the database {path} cannot be opened ({reason})",
    sqlite3.SQLITE_NOMEM: "SQLite ran out of memory working on {path} ({reason})",
    sqlite3.SQLITE_BUSY: (
        "the database stayed busy ({reason}); another process may hold a long write lock, try again"
    ),
}
ADVICE[sqlite3.SQLITE_NOTADB] = ADVICE[sqlite3.SQLITE_CORRUPT]
ADVICE[sqlite3.SQLITE_PERM] = ADVICE[sqlite3.SQLITE_READONLY]
ADVICE[sqlite3.SQLITE_LOCKED] = ADVICE[sqlite3.SQLITE_BUSY]
ADVICE[sqlite3.SQLITE_PROTOCOL] = ADVICE[sqlite3.SQLITE_BUSY]

#: loci writes every JSON column with `json.dumps`: SQLite finding one malformed means the
#: file was changed behind loci's back, which is damage too.
DAMAGED_JSON = "malformed JSON"


def storage_failure(path: Path, error: sqlite3.Error) -> StorageUnavailableError | None:
    """The user-facing error for `error`, or None when it is not a storage failure."""
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary == sqlite3.SQLITE_ERROR and str(error) == DAMAGED_JSON:
        primary = sqlite3.SQLITE_CORRUPT
    advice = ADVICE.get(primary) if primary is not None else None
    if advice is None:
        return None
    return StorageUnavailableError(
        advice.format(path=path, reason=error),
        path=str(path),
        reason=getattr(error, "sqlite_errorname", None) or str(error),
    )


@contextmanager
def translated(path: Path) -> Iterator[None]:
    """Raise storage failures met inside as :class:`StorageUnavailableError`."""
    try:
        yield
    except sqlite3.Error as error:
        failure = storage_failure(path, error)
        if failure is None:
            raise
        raise failure from error

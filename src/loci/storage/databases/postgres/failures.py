"""PostgreSQL failures of the network, the server or the role, as errors a user can act on.

A server that is down or unreachable, a connection cut mid-call, a role without a right:
these reach the user as `storage_unavailable` errors (HTTP 503) that say what happened, with
the URL's password masked. Everything else psycopg raises stays what it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import errors

from loci.errors import StorageUnavailableError

#: SQLSTATE classes that are the server's or the network's doing, not loci's SQL.
UNAVAILABLE_CLASSES = {
    "08": "the connection to the database failed",
    "53": "the database server ran out of a resource",
    "57": "the database server stopped the work (shut down or restarting)",
    "58": "the database server had a system error",
}


def storage_failure(location: str, error: psycopg.Error) -> StorageUnavailableError | None:
    """The user-facing error for `error`, or None when it is not a storage failure."""
    state = error.sqlstate or ""
    reason = _first_line(error)
    if isinstance(error, errors.InsufficientPrivilege):
        return StorageUnavailableError(
            f"the database role lacks a right loci needs at {location} ({reason}); "
            "`loci doctor` lists the grants",
            location=location,
            reason=reason,
        )
    what = UNAVAILABLE_CLASSES.get(state[:2])
    if what is None and isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
        what = "the database could not be reached"
    if what is None:
        return None
    return StorageUnavailableError(
        f"{what} ({location}: {reason}); loci reconnects at the next call",
        location=location,
        reason=reason,
    )


@contextmanager
def translated(location: str) -> Iterator[None]:
    """Raise storage failures met inside as :class:`StorageUnavailableError`."""
    try:
        yield
    except psycopg.Error as error:
        failure = storage_failure(location, error)
        if failure is None:
            raise
        raise failure from error


def _first_line(error: psycopg.Error) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__

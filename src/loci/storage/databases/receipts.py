"""Receipts of keyed writes: a write tool called again with the same idempotency key answers
with its first result and changes nothing.

A client retries a write whose answer it lost; without a key the retry is a second write. With
one, the receipt (key, tool, a fingerprint of the arguments) is claimed inside the write's own
transaction, by a hook that runs before each commit: the write and its receipt commit together
or not at all, so no crash between them can leave a write without its receipt. The result is
added once the call returns. A retry then finds the receipt and gets the result back; a
retry that comes while the first call runs, or after a crash took its answer, finds the
receipt without a result and is told the write was applied.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from loci.errors import ConflictError
from loci.storage.databases.db import Connection, Database
from loci.storage.databases.schema import Schema
from loci.timeutil import format_time

_RECEIPTS_TABLE = """
        CREATE TABLE write_receipts (
            key         TEXT PRIMARY KEY,
            tool        TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            claimant    TEXT NOT NULL,
            result      TEXT,
            created_at  TEXT NOT NULL
        );
        CREATE INDEX write_receipts_created ON write_receipts(created_at);
        """
#: The same table on both engines.
RECEIPTS_SCHEMA = Schema("receipts", (_RECEIPTS_TABLE,), postgres=(_RECEIPTS_TABLE,))


@dataclass(frozen=True)
class Request:
    """A keyed write: its key, its tool, the fingerprint of its arguments, and the named
    access token that holds the key (None: the owner's)."""

    key: str
    tool: str
    fingerprint: str
    holder: str | None = None

    @property
    def stored_key(self) -> str:
        """The key as kept: each token's keys apart from every other's, so that one token
        can neither replay nor learn of another's writes. (A key is printable ASCII, which
        the separator is not.)"""
        return self.key if self.holder is None else f"{self.holder}\x1f{self.key}"


@dataclass(frozen=True)
class Receipt:
    """What the store holds for a key: the request, and its result once the call returned."""

    request: Request
    result: str | None


@dataclass(frozen=True)
class _Claim:
    request: Request
    claimant: str  # this call's own mark, told apart from another process's


class Receipts:
    """The receipts of one store. `claim_pending` is the database's before-commit hook."""

    def __init__(self, keep: timedelta) -> None:
        self._keep = keep
        self._pending: ContextVar[_Claim | None] = ContextVar("loci_receipt", default=None)

    def find(self, db: Database, asked: Request) -> Receipt | None:
        """The receipt kept for the key of `asked` (of its holder), if any and not older than
        the keeping time."""
        with db.locked() as conn:
            row = conn.execute(
                "SELECT tool, fingerprint, result FROM write_receipts "
                "WHERE key = ? AND created_at >= ?",
                (asked.stored_key, self._oldest_kept()),
            ).fetchone()
        if row is None:
            return None
        return Receipt(Request(asked.key, str(row[0]), str(row[1]), asked.holder), row[2])

    @contextmanager
    def claiming(self, db: Database, request: Request) -> Iterator[None]:
        """Every commit made inside (in this context) claims `request`'s key in its own
        transaction; the commit fails with a conflict if another call holds the key. If the
        block fails, its claim is let go, so that a retry runs the call anew."""
        claim = _Claim(request, secrets.token_hex(8))
        token = self._pending.set(claim)
        try:
            yield
        except BaseException:
            self._pending.reset(token)
            with db.write() as conn:
                conn.execute(
                    "DELETE FROM write_receipts WHERE key = ? AND claimant = ? AND result IS NULL",
                    (request.stored_key, claim.claimant),
                )
            raise
        self._pending.reset(token)

    def claim_pending(self, conn: Connection) -> None:
        """The before-commit hook: claim the key of the call in progress, if it has one."""
        claim = self._pending.get()
        if claim is None:
            return
        request = claim.request
        conn.execute(
            "DELETE FROM write_receipts WHERE key = ? AND created_at < ?",
            (request.stored_key, self._oldest_kept()),
        )
        conn.execute(
            "INSERT INTO write_receipts (key, tool, fingerprint, claimant, created_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
            (request.stored_key, request.tool, request.fingerprint, claim.claimant, _now()),
        )
        holder = conn.execute(
            "SELECT claimant FROM write_receipts WHERE key = ?", (request.stored_key,)
        ).fetchone()
        if holder is None or holder[0] != claim.claimant:
            raise ConflictError(
                f"idempotency key {request.key!r} was used by another call meanwhile; "
                "nothing was written: call again with the same key to get that call's result",
                field="idempotency_key",
            )

    def complete(self, db: Database, result: str) -> None:
        """Keep the result of the call in progress (inside `claiming`): its key is claimed
        first if the call committed nothing; receipts past the keeping time go."""
        with db.write() as conn:
            self.claim_pending(conn)
            claim = self._pending.get()
            if claim is None:
                raise RuntimeError("complete() belongs inside claiming()")
            conn.execute(
                "UPDATE write_receipts SET result = ? WHERE key = ?",
                (result, claim.request.stored_key),
            )
            conn.execute("DELETE FROM write_receipts WHERE created_at < ?", (self._oldest_kept(),))

    def _oldest_kept(self) -> str:
        return format_time(datetime.now(UTC) - self._keep)


def _now() -> str:
    return format_time(datetime.now(UTC))

"""Named access tokens: one per person or agent, each limited to some toolsets, to reading, or
to some namespaces of memories.

A token is shown once, when it is made; the store keeps its SHA-256 digest (a token is 32
random bytes, so a slow password hash would add nothing) and looks a presented token up by it.
The data folder's own token (`loci token show`) stays the all-access token of its owner.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from loci import fields
from loci.access.grant import Grant
from loci.errors import ConflictError, InvalidInputError, NotFoundError
from loci.settings import known_toolsets
from loci.storage.databases.db import CONSTRAINT_ERRORS, Database
from loci.timeutil import format_time

PREFIX = "loci_"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")


@dataclass(frozen=True)
class TokenInfo:
    """A token as `loci token list` shows it (never the token itself)."""

    name: str
    toolsets: list[str] | None
    read_only: bool
    namespaces: list[str] | None
    created_at: str


@dataclass(frozen=True)
class Revocation:
    """A revoked token: its name and when it was revoked."""

    name: str
    revoked_at: str


class AccessTokens:
    """The named tokens of one store."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def create(
        self,
        name: str,
        toolsets: Sequence[str] | None = None,
        read_only: bool = False,
        namespaces: Sequence[str] | None = None,
    ) -> tuple[str, TokenInfo]:
        """A new token for `name` (shown only now) and what it may do."""
        if not NAME.fullmatch(name):
            raise InvalidInputError(
                "a token's name is 1-64 letters, digits and _ . @ -, starting with a letter or "
                f"digit; got {name[:80]!r}",
                field="name",
            )
        chosen = None if toolsets is None else sorted(set(toolsets))
        known = known_toolsets()
        unknown = sorted(set(chosen or ()) - set(known))
        if unknown or chosen == []:
            raise InvalidInputError(
                f"toolsets must be some of {', '.join(known)}; got {toolsets}",
                field="toolsets",
            )
        spaces = None if namespaces is None else sorted(set(namespaces))
        if spaces == []:
            raise InvalidInputError("namespaces, when given, name at least one", field="namespaces")
        for space in spaces or ():
            fields.namespace(space, "namespaces")
        token = PREFIX + secrets.token_urlsafe(32)
        info = TokenInfo(name, chosen, read_only, spaces, format_time(datetime.now(UTC)))
        try:
            with self._db.write() as conn:
                conn.execute(
                    "INSERT INTO access_tokens "
                    "(name, digest, toolsets, read_only, namespaces, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        name,
                        _digest(token),
                        _json_or_null(chosen),
                        int(read_only),
                        _json_or_null(spaces),
                        info.created_at,
                    ),
                )
        except CONSTRAINT_ERRORS as exc:
            raise ConflictError(
                f"there is already a token named {name!r}; revoke it first or pick another name",
                field="name",
            ) from exc
        return token, info

    def listing(self) -> list[TokenInfo]:
        """Every named token, by name."""
        with self._db.locked() as conn:
            rows = conn.execute(
                "SELECT name, toolsets, read_only, namespaces, created_at FROM access_tokens "
                "ORDER BY name"
            ).fetchall()
        return [_info(row) for row in rows]

    def revoke(self, name: str) -> TokenInfo:
        """Delete the token named `name`: it is refused from its next request on, and told
        that it was revoked."""
        with self._db.write() as conn:
            row = conn.execute(
                "DELETE FROM access_tokens WHERE name = ? "
                "RETURNING name, toolsets, read_only, namespaces, created_at, digest",
                (name,),
            ).fetchone()
            if row is not None:
                conn.execute(
                    "INSERT INTO revoked_tokens (digest, name, revoked_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (digest) DO NOTHING",
                    (row[5], row[0], format_time(datetime.now(UTC))),
                )
        if row is None:
            raise NotFoundError(f"no token named {name[:80]!r} (`loci token list`)", name=name)
        return _info(row)

    def revocation(self, presented: str) -> Revocation | None:
        """When and under which name the presented token was revoked, if it was."""
        if not presented.startswith(PREFIX):
            return None
        with self._db.locked() as conn:
            row = conn.execute(
                "SELECT name, revoked_at FROM revoked_tokens WHERE digest = ?",
                (_digest(presented),),
            ).fetchone()
        return None if row is None else Revocation(str(row[0]), str(row[1]))

    def grant_of(self, presented: str) -> Grant | None:
        """What the presented token may do, or None if it is no named token."""
        if not presented.startswith(PREFIX):
            return None
        with self._db.locked() as conn:
            row = conn.execute(
                "SELECT name, toolsets, read_only, namespaces FROM access_tokens WHERE digest = ?",
                (_digest(presented),),
            ).fetchone()
        if row is None:
            return None
        toolsets, namespaces = _set_or_none(row[1]), _set_or_none(row[3])
        return Grant(str(row[0]), toolsets, bool(row[2]), namespaces)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _json_or_null(values: list[str] | None) -> str | None:
    return None if values is None else json.dumps(values)


def _set_or_none(stored: object) -> frozenset[str] | None:
    return None if stored is None else frozenset(json.loads(str(stored)))


def _info(row: Sequence[object]) -> TokenInfo:
    toolsets = None if row[1] is None else list(json.loads(str(row[1])))
    namespaces = None if row[3] is None else list(json.loads(str(row[3])))
    return TokenInfo(str(row[0]), toolsets, bool(row[2]), namespaces, str(row[4]))

"""The tables of named access tokens (their digests, never the tokens), and of revoked ones."""

from __future__ import annotations

from loci.storage.databases.schema import Schema

_TOKENS_TABLE = """
        CREATE TABLE access_tokens (
            name       TEXT PRIMARY KEY,
            digest     TEXT NOT NULL UNIQUE,
            toolsets   TEXT,
            read_only  INTEGER NOT NULL,
            namespaces TEXT,
            created_at TEXT NOT NULL
        );
        """
#: The digests of revoked tokens, so that one presented again is told it was revoked.
_REVOKED_TABLE = """
        CREATE TABLE revoked_tokens (
            digest     TEXT PRIMARY KEY,
            name       TEXT NOT NULL,
            revoked_at TEXT NOT NULL
        );
        """
#: The same tables on both engines.
ACCESS_SCHEMA = Schema(
    "access", (_TOKENS_TABLE, _REVOKED_TABLE), postgres=(_TOKENS_TABLE, _REVOKED_TABLE)
)

"""The table of named access tokens (their digests, never the tokens)."""

from __future__ import annotations

from loci.storage.schema import Schema

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
#: The same table on both engines.
ACCESS_SCHEMA = Schema("access", (_TOKENS_TABLE,), postgres=(_TOKENS_TABLE,))

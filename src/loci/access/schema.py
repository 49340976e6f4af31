"""The table of named access tokens (their digests, never the tokens)."""

from __future__ import annotations

from loci.storage.schema import Schema

ACCESS_SCHEMA = Schema(
    "access",
    (
        """
        CREATE TABLE access_tokens (
            name       TEXT PRIMARY KEY,
            digest     TEXT NOT NULL UNIQUE,
            toolsets   TEXT,
            read_only  INTEGER NOT NULL,
            namespaces TEXT,
            created_at TEXT NOT NULL
        );
        """,
    ),
)

"""The checkpoint tables: sessions and checkpoints (payloads are blob files on SQLite, rows
of `checkpoint_blobs` on PostgreSQL)."""

from __future__ import annotations

from loci.storage.databases.schema import Schema

CHECKPOINT_SCHEMA = Schema(
    owner="checkpoints",
    migrations=(
        # 1 (4 in the single list): workflow checkpoints: metadata here, payloads in content-addressed blob
        # files.
        """
        CREATE TABLE checkpoint_sessions (
            id            TEXT PRIMARY KEY,
            workflow_id   TEXT,
            created_at    TEXT NOT NULL,
            last_saved_at TEXT NOT NULL,
            pins          TEXT NOT NULL DEFAULT '[]'
        );
        CREATE TABLE checkpoints (
            id           TEXT PRIMARY KEY,
            session_id   TEXT NOT NULL REFERENCES checkpoint_sessions(id) ON DELETE CASCADE,
            seq          INTEGER NOT NULL,
            created_at   TEXT NOT NULL,
            context_hash TEXT NOT NULL,
            size_bytes   INTEGER NOT NULL,
            stored_bytes INTEGER NOT NULL,
            blob         TEXT NOT NULL,
            encrypted    INTEGER NOT NULL DEFAULT 0,
            key_id       TEXT,
            critical     INTEGER NOT NULL DEFAULT 0,
            metadata     TEXT NOT NULL DEFAULT '{}',
            report       TEXT NOT NULL DEFAULT '{}',
            UNIQUE (session_id, seq)
        );
        CREATE INDEX checkpoints_blob ON checkpoints(blob);
        CREATE INDEX checkpoints_cleanup ON checkpoints(critical, created_at);
        """,
        # 2 (10 in the single list): a checkpoint may be stored as changes to an earlier one of its session
        # (`base_id`, `depth` links from a whole one); `stored_hash` checks the document rebuilt from them.
        """
        ALTER TABLE checkpoints ADD COLUMN base_id TEXT;
        ALTER TABLE checkpoints ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE checkpoints ADD COLUMN stored_hash TEXT;
        CREATE INDEX checkpoints_base ON checkpoints(base_id) WHERE base_id IS NOT NULL;
        """,
    ),
    legacy=(4, 10),
    postgres=(
        # Payloads live in the database too: every server of a team must read them.
        """
        CREATE TABLE checkpoint_sessions (
            id            TEXT PRIMARY KEY,
            workflow_id   TEXT,
            created_at    TEXT NOT NULL,
            last_saved_at TEXT NOT NULL,
            pins          TEXT NOT NULL DEFAULT '[]'
        );
        CREATE TABLE checkpoints (
            id           TEXT PRIMARY KEY,
            session_id   TEXT NOT NULL REFERENCES checkpoint_sessions(id) ON DELETE CASCADE,
            seq          INTEGER NOT NULL,
            created_at   TEXT NOT NULL,
            context_hash TEXT NOT NULL,
            size_bytes   BIGINT NOT NULL,
            stored_bytes BIGINT NOT NULL,
            blob         TEXT NOT NULL,
            encrypted    INTEGER NOT NULL DEFAULT 0,
            key_id       TEXT,
            critical     INTEGER NOT NULL DEFAULT 0,
            metadata     TEXT NOT NULL DEFAULT '{}',
            report       TEXT NOT NULL DEFAULT '{}',
            base_id      TEXT,
            depth        INTEGER NOT NULL DEFAULT 0,
            stored_hash  TEXT,
            UNIQUE (session_id, seq)
        );
        CREATE INDEX checkpoints_blob ON checkpoints(blob);
        CREATE INDEX checkpoints_cleanup ON checkpoints(critical, created_at);
        CREATE INDEX checkpoints_base ON checkpoints(base_id) WHERE base_id IS NOT NULL;
        CREATE TABLE checkpoint_blobs (
            digest     TEXT PRIMARY KEY,
            data       BYTEA NOT NULL,
            created_at TEXT NOT NULL
        );
        """,
    ),
)

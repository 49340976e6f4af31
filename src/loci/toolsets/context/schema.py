"""The context-file tables: projects, every saved version of each file, and the failed
attempts since the last.
"""

from __future__ import annotations

from loci.storage.databases.schema import Schema

CONTEXT_SCHEMA = Schema(
    owner="context",
    migrations=(
        # 1 (3 in the single list): projects' context files: every saved version, and the failed attempts
        # since the last.
        """
        CREATE TABLE context_projects (
            id         TEXT PRIMARY KEY,
            name       TEXT NOT NULL,
            path       TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE context_versions (
            project_id   TEXT NOT NULL REFERENCES context_projects(id) ON DELETE CASCADE,
            file_type    TEXT NOT NULL,
            version      INTEGER NOT NULL,
            content      TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            saved_at     TEXT NOT NULL,
            forced       INTEGER NOT NULL DEFAULT 0,
            issues       TEXT NOT NULL DEFAULT '[]',
            PRIMARY KEY (project_id, file_type, version)
        ) WITHOUT ROWID;
        CREATE TABLE context_attempts (
            project_id      TEXT NOT NULL REFERENCES context_projects(id) ON DELETE CASCADE,
            file_type       TEXT NOT NULL,
            failures        INTEGER NOT NULL,
            best_attempt    INTEGER NOT NULL,
            best_confidence REAL NOT NULL,
            PRIMARY KEY (project_id, file_type)
        ) WITHOUT ROWID;
        """,
    ),
    legacy=(3,),
    postgres=(
        """
        CREATE TABLE context_projects (
            id         TEXT PRIMARY KEY,
            name       TEXT NOT NULL,
            path       TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE context_versions (
            project_id   TEXT NOT NULL REFERENCES context_projects(id) ON DELETE CASCADE,
            file_type    TEXT NOT NULL,
            version      INTEGER NOT NULL,
            content      TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            saved_at     TEXT NOT NULL,
            forced       INTEGER NOT NULL DEFAULT 0,
            issues       TEXT NOT NULL DEFAULT '[]',
            PRIMARY KEY (project_id, file_type, version)
        );
        CREATE TABLE context_attempts (
            project_id      TEXT NOT NULL REFERENCES context_projects(id) ON DELETE CASCADE,
            file_type       TEXT NOT NULL,
            failures        INTEGER NOT NULL,
            best_attempt    INTEGER NOT NULL,
            best_confidence DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (project_id, file_type)
        );
        """,
    ),
)

"""SQL for projects, context-file versions and failed attempts. Rows in, rows out; no rules."""

from __future__ import annotations

from dataclasses import dataclass

from loci.storage.databases.db import Connection


@dataclass(frozen=True)
class ProjectRow:
    """A registered project."""

    id: str
    name: str
    path: str
    created_at: str


@dataclass(frozen=True)
class VersionRow:
    """One saved version of a context file."""

    file_type: str
    version: int
    content: str
    content_hash: str
    saved_at: str
    forced: bool
    issues_json: str


@dataclass(frozen=True)
class Attempts:
    """Failed updates of one file since its last save."""

    failures: int
    best_attempt: int
    best_confidence: float


def upsert_project(conn: Connection, project: ProjectRow) -> bool:
    """Register a project, or rename it if `project.name` differs; True if it is new."""
    found = conn.execute("SELECT 1 FROM context_projects WHERE id = ?", (project.id,)).fetchone()
    if found is None:
        conn.execute(
            "INSERT INTO context_projects(id, name, path, created_at) VALUES (?, ?, ?, ?)",
            (project.id, project.name, project.path, project.created_at),
        )
        return True
    conn.execute("UPDATE context_projects SET name = ? WHERE id = ?", (project.name, project.id))
    return False


def project(conn: Connection, project_id: str) -> ProjectRow | None:
    """One project by id."""
    row = conn.execute(
        "SELECT id, name, path, created_at FROM context_projects WHERE id = ?", (project_id,)
    ).fetchone()
    return None if row is None else ProjectRow(*row)


def projects(conn: Connection) -> list[ProjectRow]:
    """Every project, by name."""
    rows = conn.execute(
        "SELECT id, name, path, created_at FROM context_projects ORDER BY name, id"
    ).fetchall()
    return [ProjectRow(*row) for row in rows]


def latest_versions(conn: Connection, project_id: str) -> list[VersionRow]:
    """The newest version of each of a project's files."""
    rows = conn.execute(
        f"SELECT {_VERSION_COLUMNS} FROM context_versions v WHERE project_id = ? AND version = "
        "(SELECT max(version) FROM context_versions w "
        " WHERE w.project_id = v.project_id AND w.file_type = v.file_type) ORDER BY file_type",
        (project_id,),
    ).fetchall()
    return [_version(row) for row in rows]


def version(
    conn: Connection, project_id: str, file_type: str, number: int | None
) -> VersionRow | None:
    """A file's version `number`, or its newest when `number` is None."""
    if number is None:
        row = conn.execute(
            f"SELECT {_VERSION_COLUMNS} FROM context_versions WHERE project_id = ? "
            "AND file_type = ? ORDER BY version DESC LIMIT 1",
            (project_id, file_type),
        ).fetchone()
    else:
        row = conn.execute(
            f"SELECT {_VERSION_COLUMNS} FROM context_versions WHERE project_id = ? "
            "AND file_type = ? AND version = ?",
            (project_id, file_type, number),
        ).fetchone()
    return None if row is None else _version(row)


def history(conn: Connection, project_id: str, file_type: str, limit: int) -> list[VersionRow]:
    """A file's versions, newest first."""
    rows = conn.execute(
        f"SELECT {_VERSION_COLUMNS} FROM context_versions WHERE project_id = ? AND file_type = ? "
        "ORDER BY version DESC LIMIT ?",
        (project_id, file_type, limit),
    ).fetchall()
    return [_version(row) for row in rows]


def insert_version(conn: Connection, project_id: str, row: VersionRow) -> None:
    """Add a version (call inside a write transaction, after reading the newest number)."""
    conn.execute(
        "INSERT INTO context_versions(project_id, file_type, version, content, content_hash, "
        "saved_at, forced, issues) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            project_id,
            row.file_type,
            row.version,
            row.content,
            row.content_hash,
            row.saved_at,
            int(row.forced),
            row.issues_json,
        ),
    )


def attempts(conn: Connection, project_id: str, file_type: str) -> Attempts:
    """Failed updates since the last save (zero when there are none)."""
    row = conn.execute(
        "SELECT failures, best_attempt, best_confidence FROM context_attempts "
        "WHERE project_id = ? AND file_type = ?",
        (project_id, file_type),
    ).fetchone()
    return Attempts(0, 0, 0.0) if row is None else Attempts(int(row[0]), int(row[1]), row[2])


def record_failure(
    conn: Connection, project_id: str, file_type: str, confidence: float
) -> Attempts:
    """Count one more failed update, remembering the best one; returns the new counts."""
    before = attempts(conn, project_id, file_type)
    failures = before.failures + 1
    better = confidence > before.best_confidence or before.failures == 0
    after = Attempts(
        failures,
        failures if better else before.best_attempt,
        confidence if better else before.best_confidence,
    )
    conn.execute(
        "INSERT INTO context_attempts(project_id, file_type, failures, best_attempt, "
        "best_confidence) VALUES (?, ?, ?, ?, ?) ON CONFLICT(project_id, file_type) DO UPDATE "
        "SET failures = excluded.failures, best_attempt = excluded.best_attempt, "
        "best_confidence = excluded.best_confidence",
        (project_id, file_type, after.failures, after.best_attempt, after.best_confidence),
    )
    return after


def reset_attempts(conn: Connection, project_id: str, file_type: str) -> None:
    """Forget the failed updates (after a save)."""
    conn.execute(
        "DELETE FROM context_attempts WHERE project_id = ? AND file_type = ?",
        (project_id, file_type),
    )


_VERSION_COLUMNS = "file_type, version, content, content_hash, saved_at, forced, issues"


def _version(row: tuple[object, ...]) -> VersionRow:
    return VersionRow(
        file_type=str(row[0]),
        version=int(str(row[1])),
        content=str(row[2]),
        content_hash=str(row[3]),
        saved_at=str(row[4]),
        forced=bool(row[5]),
        issues_json=str(row[6]),
    )

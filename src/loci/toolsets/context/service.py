"""Projects' context files: read, validate, save with history, and guide corrections.

A valid update is saved as version n+1 in SQLite (the system of record), written atomically as
`<data>/projects/<project_id>/<file_type>.md` for people and editors, and indexed in memory
(namespace `project:<id>`), all under one write transaction. When two processes update the same
file at once, the last writer wins and both versions stay in the history.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from loci.errors import InvalidInputError, NotFoundError
from loci.fields import MAX_COUNT, shown, utf8
from loci.storage.databases.db import Connection, Database
from loci.storage.files import atomic_write, private_folder, storage_errors
from loci.timeutil import now
from loci.toolsets.context import store
from loci.toolsets.context.guidance import Guidance, guidance_for
from loci.toolsets.context.indexing import drafts_for, namespace_of
from loci.toolsets.context.library import TemplateLibrary, template_info
from loci.toolsets.context.models import (
    BestAttempt,
    CheckResult,
    ContextFile,
    ContextHistory,
    CorrectionGuidance,
    FileSummary,
    ProjectInfo,
    ProjectList,
    UpdateResult,
    ValidationIssue,
    VersionInfo,
)
from loci.toolsets.context.naming import (
    NAME_PATTERN,
    absolute_path,
    existing_folder,
    path_name,
    project_label,
)
from loci.toolsets.context.validate import Validation, validate
from loci.toolsets.memory.service import MemoryService

MAX_HISTORY = 1000
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class ContextLimits:
    """Bounds of the context-file toolset (from Settings)."""

    max_bytes: int = 256 * 1024
    max_attempts: int = 3


class ContextService:
    """Context files of registered projects."""

    def __init__(
        self, db: Database, memory: MemoryService, home: Path, limits: ContextLimits
    ) -> None:
        self._db = db
        self._memory = memory
        self._home = home
        self._projects_folder = home / "projects"
        self._limits = limits
        self.templates = TemplateLibrary(home / "templates")

    def init_project(self, path: str, name: str | None = None) -> ProjectInfo:
        """Register the project at an absolute path (again: same id); create its folder."""
        absolute = existing_folder(absolute_path(path))
        project_id = project_id_for(absolute)
        label = (os.path.basename(absolute) or "root") if name is None else project_label(name)
        row = store.ProjectRow(project_id, label, absolute, now())
        folder = self._folder(project_id)
        with storage_errors(folder, "create the project folder"):
            private_folder(
                folder, self._home
            )  # first: a project is only registered with its folder
        with self._db.write() as conn:
            existing = store.project(conn, project_id)
            if existing is not None and name is None:
                row = existing
            store.upsert_project(conn, row)
        return self._project_info(project_id)

    def resolve(self, project: str) -> str:
        """A registered project's id, given its id or its (absolute) path."""
        if isinstance(project, str) and NAME_PATTERN.match(project):
            with self._db.locked() as conn:
                if store.project(conn, project) is not None:
                    return project
        if isinstance(project, str) and os.path.isabs(os.path.expanduser(project)):
            project_id = project_id_for(absolute_path(project))
            return self._require_project(project_id)
        return self._require_project(project)

    def list_projects(self) -> ProjectList:
        """Every registered project with its files."""
        with self._db.snapshot() as conn:
            ids = [p.id for p in store.projects(conn)]
        infos = [self._project_info(project_id) for project_id in ids]
        return ProjectList(projects=infos, total=len(infos))

    def get_context(
        self, project_id: str, file_type: str, version: int | None = None
    ) -> ContextFile:
        """A file's newest (or a given) version; the template skeleton if nothing is saved."""
        project_id = self._require_project(project_id)
        template = self.templates.get(file_type)
        if version is not None and (isinstance(version, bool) or not 1 <= version <= MAX_COUNT):
            raise InvalidInputError(
                f"version must be 1-{MAX_COUNT}, got {shown(version)}", field="version"
            )
        with self._db.snapshot() as conn:
            latest = store.version(conn, project_id, file_type, None)
            wanted = store.version(conn, project_id, file_type, version) if version else latest
        if version is not None and wanted is None:
            raise NotFoundError(
                f"{file_type} of project {project_id} has no version {version} "
                f"(newest: {latest.version if latest else 'none'})",
                version=version,
            )
        path = self._file(project_id, file_type)
        return ContextFile(
            project_id=project_id,
            file_type=file_type,
            exists=wanted is not None,
            is_skeleton=wanted is None,
            content=wanted.content if wanted else template.skeleton(),
            version=wanted.version if wanted else None,
            latest_version=latest.version if latest else None,
            updated_at=wanted.saved_at if wanted else None,
            forced=wanted.forced if wanted else False,
            path=str(path),
            edited_outside=latest is not None and _digest_of_file(path) != latest.content_hash,
            template=template_info(template),
        )

    def update_context(
        self, project_id: str, file_type: str, content: str, force: bool = False
    ) -> UpdateResult:
        """Validate `content`; save it if valid (or forced), else say how to fix it."""
        project_id = self._require_project(project_id)
        template = self.templates.get(file_type)
        content = self._checked_content(content)
        result = validate(content, template)
        if result.valid or force:
            return self._save(project_id, file_type, content, result, forced=not result.valid)
        with self._db.write() as conn:
            tries = store.record_failure(conn, project_id, file_type, result.confidence())
        limit = self._limits.max_attempts
        reached = tries.failures >= limit
        guidance = guidance_for(result, tries.failures, limit)
        return UpdateResult(
            status="max_attempts_reached" if reached else "correction_needed",
            message=(
                f"Still invalid after {tries.failures} attempts. Fix it with the guidance, or save "
                "it as it is with force=true (recorded as forced)."
                if reached
                else "Not saved: the document needs correction. Follow correction_guidance."
            ),
            project_id=project_id,
            file_type=file_type,
            version=None,
            path=None,
            forced=False,
            attempt=tries.failures,
            max_attempts=limit,
            confidence=result.confidence(),
            validation_errors=_issues(result),
            correction_guidance=_guidance(guidance),
            best_attempt=BestAttempt(attempt=tries.best_attempt, confidence=tries.best_confidence),
            indexed_memories=0,
        )

    def check(self, file_type: str, content: str) -> CheckResult:
        """Validate a document against a template without saving or counting an attempt."""
        template = self.templates.get(file_type)
        result = validate(self._checked_content(content), template)
        guidance = None if result.valid else guidance_for(result, 1, self._limits.max_attempts)
        return CheckResult(
            file_type=file_type,
            valid=result.valid,
            confidence=result.confidence(),
            validation_errors=_issues(result),
            correction_guidance=None if guidance is None else _guidance(guidance),
        )

    def history(self, project_id: str, file_type: str, limit: int = 50) -> ContextHistory:
        """A file's saved versions, newest first."""
        project_id = self._require_project(project_id)
        path_name(file_type, "file_type")
        if isinstance(limit, bool) or not 1 <= limit <= MAX_HISTORY:
            raise InvalidInputError(f"limit must be 1-{MAX_HISTORY}", field="limit")
        with self._db.snapshot() as conn:
            rows = store.history(conn, project_id, file_type, limit)
        versions = [
            VersionInfo(
                version=r.version,
                saved_at=r.saved_at,
                size_bytes=len(r.content.encode("utf-8")),
                content_hash=r.content_hash,
                forced=r.forced,
            )
            for r in rows
        ]
        return ContextHistory(
            project_id=project_id, file_type=file_type, versions=versions, total=len(versions)
        )

    # -- helpers -------------------------------------------------------------------------------

    def _save(
        self, project_id: str, file_type: str, content: str, result: Validation, forced: bool
    ) -> UpdateResult:
        digest = _digest(content)
        path = self._file(project_id, file_type)
        with self._db.locked() as conn:
            latest = store.version(conn, project_id, file_type, None)
        if latest is not None and latest.content_hash == digest and not forced:
            return self._unchanged(project_id, file_type, latest.version, result)
        saved: list[int] = []

        def write_version(conn: Connection) -> None:
            latest = store.version(conn, project_id, file_type, None)
            number = (latest.version if latest else 0) + 1
            issues = json.dumps([asdict(i) for i in result.issues], ensure_ascii=False)
            row = store.VersionRow(file_type, number, content, digest, now(), forced, issues)
            store.insert_version(conn, project_id, row)
            store.reset_attempts(conn, project_id, file_type)
            # Inside the transaction: the file on disk follows the order of the versions, and
            # a file that cannot be written leaves no version behind.
            with storage_errors(path, "write", "nothing was saved"):
                atomic_write(path, content.encode("utf-8"), root=self._home)
            saved.append(number)

        drafts = drafts_for(result.document, result.template, project_id, file_type)
        ids = self._memory.replace(
            drafts, namespace_of(project_id), {"metadata.file_type": file_type}, write_version
        )
        message = (
            f"Saved as version {saved[0]} despite {len(result.issues)} problem(s) (forced)."
            if forced
            else f"Saved as version {saved[0]}."
        )
        return self._saved(project_id, file_type, saved[0], result, message, forced, len(ids))

    def _unchanged(
        self, project_id: str, file_type: str, version: int, result: Validation
    ) -> UpdateResult:
        with self._db.write() as conn:
            store.reset_attempts(conn, project_id, file_type)
        message = f"Unchanged: identical to version {version}, nothing new was saved."
        return self._saved(project_id, file_type, version, result, message, False, 0)

    def _saved(
        self,
        project_id: str,
        file_type: str,
        version: int,
        result: Validation,
        message: str,
        forced: bool,
        indexed: int,
    ) -> UpdateResult:
        return UpdateResult(
            status="success",
            message=message,
            project_id=project_id,
            file_type=file_type,
            version=version,
            path=str(self._file(project_id, file_type)),
            forced=forced,
            attempt=0,
            max_attempts=self._limits.max_attempts,
            confidence=result.confidence(),
            validation_errors=_issues(result),
            correction_guidance=None,
            best_attempt=None,
            indexed_memories=indexed,
        )

    def _project_info(self, project_id: str) -> ProjectInfo:
        with self._db.snapshot() as conn:
            row = store.project(conn, project_id)
            files = store.latest_versions(conn, project_id)
        if row is None:
            raise NotFoundError(f"no project {project_id}", project_id=project_id)
        summaries = [
            FileSummary(
                file_type=f.file_type, version=f.version, updated_at=f.saved_at, forced=f.forced
            )
            for f in files
        ]
        return ProjectInfo(
            project_id=row.id,
            name=row.name,
            path=row.path,
            folder=str(self._folder(row.id)),
            created_at=row.created_at,
            updated_at=max((f.updated_at for f in summaries), default=None),
            files=summaries,
        )

    def _require_project(self, project_id: str) -> str:
        path_name(project_id, "project_id")
        with self._db.locked() as conn:
            found = store.project(conn, project_id)
        if found is None:
            raise NotFoundError(
                f"no project {project_id}; register its folder first (init_project, or `loci context "
                "init PATH`)",
                project_id=project_id,
            )
        return project_id

    def _checked_content(self, content: str) -> str:
        if not isinstance(content, str) or not content.strip():
            raise InvalidInputError(
                "content must be a non-empty Markdown document", field="content"
            )
        if "\x00" in content:
            raise InvalidInputError("content must not contain NUL characters", field="content")
        size = len(utf8(content, "content"))  # a lone surrogate: no file can hold it
        if size > self._limits.max_bytes:
            raise InvalidInputError(
                f"content is {size} bytes; the limit is {self._limits.max_bytes} "
                "(LOCI_CONTEXT_MAX_BYTES)",
                field="content",
                size=size,
                max_bytes=self._limits.max_bytes,
            )
        return content

    def _folder(self, project_id: str) -> Path:
        return self._projects_folder / path_name(project_id, "project_id")

    def _file(self, project_id: str, file_type: str) -> Path:
        return self._folder(project_id) / f"{path_name(file_type, 'file_type')}.md"


def project_id_for(absolute_path: str) -> str:
    """The id of the project at a normalised absolute path: its folder name and a hash."""
    digest = hashlib.sha256(absolute_path.encode("utf-8")).hexdigest()[:12]
    basename = os.path.basename(absolute_path) or "root"
    return f"{(_SLUG.sub('-', basename.lower()).strip('-') or 'project')[:40]}-{digest}"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _digest_of_file(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _issues(result: Validation) -> list[ValidationIssue]:
    return [
        ValidationIssue(
            type=i.type, section=i.section, message=i.message, severity=i.severity, line=i.line
        )
        for i in result.errors_first()
    ]


def _guidance(guidance: Guidance) -> CorrectionGuidance:
    return CorrectionGuidance(**asdict(guidance))

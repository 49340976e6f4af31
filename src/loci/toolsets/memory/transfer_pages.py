"""Export and import from the view. An export is a download streamed a page of memories at a
time, each page one call of its own, so that MCP calls go on between pages. An import runs as
a job, a batch at a time (each batch one call), and its page shows how far it has come,
reloading itself until it is done (no script needed)."""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from loci.errors import InvalidInputError, LociError, NotFoundError
from loci.faces.web.jobs import Jobs, import_target
from loci.faces.web.sessions import ViewSession
from loci.faces.web.view import PREFIX, View, namespaces_of, one_of, visible
from loci.timeutil import now
from loci.toolsets.memory.export_files import (
    DOCUMENT_ENDS,
    LIST_OPENS,
    ExportContent,
    document_parts,
    dumps_export_line,
)
from loci.toolsets.memory.models import ExportResult, ImportResult
from loci.toolsets.memory.transfer import ImportOptions

if TYPE_CHECKING:
    from loci.app import App

#: Memories read per call while exporting, and imported per call.
EXPORT_PAGE = 1000
IMPORT_BATCH = 500


@dataclass
class ImportJob:
    """An import under way (or done): how far it has come, and what it did."""

    owner: str  # the form token of the session that started it: only that session sees it
    total: int
    done: int = 0
    finished: bool = False
    problem: str | None = None
    result: ImportResult = field(
        default_factory=lambda: ImportResult(
            imported=0, skipped_duplicates=0, failed=0, errors=[], ids=[]
        )
    )


class TransferPages:
    """The export and import pages of the view."""

    def __init__(self, view: View) -> None:
        self.view = view
        self._jobs: Jobs[ImportJob] = Jobs()

    async def form(self, request: Request, session: ViewSession) -> Response:
        """The export and import forms."""
        return self.view.page(
            request,
            "transfer.html",
            session,
            namespaces=await self.view.namespaces(session),
            limited=namespaces_of(session.grant) is not None,
        )

    async def export(self, request: Request, session: ViewSession) -> Response:
        """The memories (of a namespace) as an export file `loci import` and the view read."""
        namespace = request.query_params.get("namespace") or None
        vectors = request.query_params.get("vectors") == "on"
        if namespace is None and namespaces_of(session.grant) is not None:
            raise InvalidInputError("choose one of your namespaces to export", field="namespace")
        if namespace is not None and not visible(session.grant, namespace):
            raise NotFoundError(f"no namespace {namespace} for this token")
        # The first memory is asked for before streaming: a namespace that does not exist is
        # a page, not a broken download.
        header, _ = await self.view.run(
            lambda app: (app.transfer.export_header(), app.transfer.export(namespace, False, 0, 1))
        )

        async def lines() -> AsyncIterator[bytes]:
            yield (json.dumps(header, ensure_ascii=False)[:-1] + LIST_OPENS + "\n").encode()
            offset: int | None = 0
            written = 0
            while offset is not None:
                page = await self.view.run(partial(_export_page, namespace, vectors, offset))
                for memory in page.export.memories:
                    yield ((",\n" if written else "") + dumps_export_line(memory)).encode()
                    written += 1
                offset = page.next_offset
            yield ("\n" + DOCUMENT_ENDS + "\n").encode()

        name = f"loci-{namespace or 'all'}-{now()[:10]}.json"
        return StreamingResponse(
            lines(),
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    async def start_import(self, request: Request, session: ViewSession) -> Response:
        """Read the uploaded export and start importing it; show its progress page."""
        form = await request.form()
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise InvalidInputError("choose an export file to import", field="file")
        content = _content_of(await upload.read())
        options = ImportOptions(
            namespace_override=import_target(one_of(form, "namespace") or None, session),
            skip_duplicates=one_of(form, "skip_duplicates") == "on",
            recompute_vectors=one_of(form, "recompute_vectors") == "on",
        )
        job = ImportJob(owner=session.form_token, total=content.count)
        job_id = self._jobs.add(job)
        worker = threading.Thread(
            target=self._run, args=(job, content, options), name="loci-view-import", daemon=True
        )
        worker.start()
        return self.view.redirect(f"{PREFIX}/import/{job_id}")

    async def progress(self, request: Request, session: ViewSession) -> Response:
        """How far an import has come (the page reloads itself until it is done)."""
        job = self._jobs.of(str(request.path_params["job_id"]), session)
        return self.view.page(request, "import.html", session, job=job)

    def _run(self, job: ImportJob, content: ExportContent, options: ImportOptions) -> None:
        """Import a batch per call, adding up what each did."""
        items = list(content.memories)
        try:
            for start in range(0, len(items), IMPORT_BATCH):
                batch = items[start : start + IMPORT_BATCH]
                part = ExportContent(content.header, batch, len(batch))
                done = self.view.provider.call(partial(_import_part, part, options))
                _add(job.result, done, start)
                job.done = start + len(batch)
        except LociError as exc:
            job.problem = exc.message
        finally:
            job.finished = True


def _export_page(namespace: str | None, vectors: bool, offset: int, app: App) -> ExportResult:
    return app.transfer.export(namespace, vectors, offset, EXPORT_PAGE)


def _import_part(part: ExportContent, options: ImportOptions, app: App) -> ImportResult:
    return app.transfer.import_content(part, options)


def _content_of(data: bytes) -> ExportContent:
    try:
        document: Any = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"the file is not an export (JSON): {exc}", field="file") from None
    return document_parts(document)


def _add(total: ImportResult, part: ImportResult, offset: int) -> None:
    """Add a batch's result to the job's (its items' positions counted in the whole file)."""
    total.imported += part.imported
    total.skipped_duplicates += part.skipped_duplicates
    total.failed += part.failed
    total.ids += part.ids
    total.errors += [
        error.model_copy(update={"index": error.index + offset}) for error in part.errors
    ]


def routes(view: View) -> list[BaseRoute]:
    """The export and import pages."""
    transfer = TransferPages(view)
    return [
        Route(f"{PREFIX}/transfer", view.guarded(transfer.form), methods=["GET"]),
        Route(f"{PREFIX}/export", view.guarded(transfer.export), methods=["GET"]),
        Route(f"{PREFIX}/import", view.guarded(transfer.start_import, True), methods=["POST"]),
        Route(f"{PREFIX}/import/{{job_id}}", view.guarded(transfer.progress), methods=["GET"]),
    ]

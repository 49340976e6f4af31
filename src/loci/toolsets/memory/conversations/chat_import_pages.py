"""The view's page for importing other apps' chat history: a form for the export (uploaded),
then a page that shows the import's progress and, once done, what it stored. The import runs
as a job, a batch of messages per call, so MCP calls go on in between."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from loci.errors import InvalidInputError, LociError
from loci.faces.web.jobs import Jobs, import_target
from loci.faces.web.sessions import ViewSession
from loci.faces.web.view import PREFIX, View, namespaces_of, one_of
from loci.toolsets.memory.conversations.exports.records import APPS
from loci.toolsets.memory.conversations.models import ChatImportReport

if TYPE_CHECKING:
    from loci.toolsets.memory.conversations.chat_imports import ChatImportOptions, ImportProgress

log = logging.getLogger("loci.web")


@dataclass
class ChatImportJob:
    """A chat import under way (or done)."""

    owner: str  # the form token of the session that started it: only that session sees it
    name: str
    step: ImportProgress | None = None
    finished: bool = False
    problem: str | None = None
    report: ChatImportReport | None = None


class ChatImportPages:
    """The chat import form and its jobs' pages."""

    def __init__(self, view: View) -> None:
        self.view = view
        self._jobs: Jobs[ChatImportJob] = Jobs()

    async def form(self, request: Request, session: ViewSession) -> Response:
        """The form."""
        return self.view.page(
            request,
            "chat_import.html",
            session,
            formats=APPS.values(),
            namespaces=await self.view.namespaces(session),
            limited=namespaces_of(session.grant) is not None,
        )

    async def start(self, request: Request, session: ViewSession) -> Response:
        """Read the uploaded export and start importing it; show its progress page."""
        from loci.toolsets.memory.conversations.chat_imports import ChatImportOptions

        form = await request.form()
        upload = form.get("file")
        if not isinstance(upload, UploadFile) or not upload.filename:
            raise InvalidInputError("choose an export file to import", field="file")
        chosen = one_of(form, "format")
        if chosen and chosen not in APPS:
            raise InvalidInputError(f"format must be one of {', '.join(APPS)}", field="format")
        options = ChatImportOptions(
            format=chosen or None,
            namespace=import_target(one_of(form, "namespace") or None, session),
            all_branches=one_of(form, "all_branches") == "on",
            dry_run=one_of(form, "dry_run") == "on",
        )
        data = await upload.read()
        job = ChatImportJob(owner=session.form_token, name=upload.filename)
        job_id = self._jobs.add(job)
        worker = threading.Thread(
            target=self._run, args=(job, data, options), name="loci-chat-import", daemon=True
        )
        worker.start()
        return self.view.redirect(f"{PREFIX}/chats/{job_id}")

    async def progress(self, request: Request, session: ViewSession) -> Response:
        """How far an import has come (the page reloads itself until it is done)."""
        job = self._jobs.of(str(request.path_params["job_id"]), session)
        return self.view.page(request, "chat_import_job.html", session, job=job)

    def _run(self, job: ChatImportJob, data: bytes, options: ChatImportOptions) -> None:
        from loci.toolsets.memory.conversations.exports.files import uploaded_files

        provider = self.view.provider

        def locked(work: Callable[[], list[str]]) -> list[str]:
            return provider.call(lambda _app: work())

        def progress(step: ImportProgress) -> None:
            job.step = step

        try:
            service = provider.app().chat_imports
            limit = provider.settings.import_max_bytes
            with uploaded_files(job.name, data, limit) as files:
                job.report = service.import_files(files, options, progress, locked, job.name)
        except LociError as exc:
            job.problem = exc.message
        except Exception as exc:  # the page must not say "done" over a failure
            log.exception("chat import %s failed", job.name)
            job.problem = (
                f"the import failed unexpectedly ({type(exc).__name__}); the server's log "
                "has the details"
            )
        finally:
            job.finished = True


def routes(view: View) -> list[BaseRoute]:
    """The chat import pages."""
    pages = ChatImportPages(view)
    return [
        Route(f"{PREFIX}/chats", view.guarded(pages.form), methods=["GET"]),
        Route(f"{PREFIX}/chats", view.guarded(pages.start, True), methods=["POST"]),
        Route(f"{PREFIX}/chats/{{job_id}}", view.guarded(pages.progress), methods=["GET"]),
    ]

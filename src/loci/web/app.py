"""The web view's ASGI app: its routes under `/ui` and its static files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from loci.web.checkpoint_pages import CheckpointPages
from loci.web.context_pages import ContextPages
from loci.web.login import Login
from loci.web.map_page import MapPage
from loci.web.memories import MemoryPages
from loci.web.story_pages import StoryPages
from loci.web.transfer_pages import TransferPages
from loci.web.view import PREFIX, GrantLookup, Token, View

if TYPE_CHECKING:
    from loci.mcp.provider import AppProvider


def build_view(
    provider: AppProvider,
    token: Token | None,
    grants: GrantLookup | None,
    allowed_hosts: list[str],
) -> tuple[Starlette, View]:
    """The view's app, and its frame (whose sessions `loci ui` gives a ticket of)."""
    view = View(provider, token, grants, allowed_hosts)
    login = Login(view)
    memories = MemoryPages(view)
    drawn = MapPage(view)
    context = ContextPages(view)
    checkpoints = CheckpointPages(view)
    stories = StoryPages(view)
    transfer = TransferPages(view)
    routes = [
        Route(f"{PREFIX}/login", login.form, methods=["GET"]),
        Route(f"{PREFIX}/login", login.submit, methods=["POST"]),
        Route(f"{PREFIX}/logout", view.guarded(login.logout), methods=["POST"]),
        Route(f"{PREFIX}/", view.guarded(memories.listing), methods=["GET"]),
        Route(f"{PREFIX}/m/{{memory_id}}", view.guarded(memories.memory), methods=["GET"]),
        Route(f"{PREFIX}/m/{{memory_id}}", view.guarded(memories.save, True), methods=["POST"]),
        Route(
            f"{PREFIX}/m/{{memory_id}}/forget",
            view.guarded(memories.confirm_forget, True),
            methods=["GET"],
        ),
        Route(
            f"{PREFIX}/m/{{memory_id}}/forget",
            view.guarded(memories.forget, True),
            methods=["POST"],
        ),
        Route(f"{PREFIX}/forget", view.guarded(memories.forget_selected, True), methods=["POST"]),
        Route(f"{PREFIX}/map", view.guarded(drawn.map), methods=["GET"]),
        Route(f"{PREFIX}/transfer", view.guarded(transfer.form), methods=["GET"]),
        Route(f"{PREFIX}/export", view.guarded(transfer.export), methods=["GET"]),
        Route(f"{PREFIX}/import", view.guarded(transfer.start_import, True), methods=["POST"]),
        Route(f"{PREFIX}/import/{{job_id}}", view.guarded(transfer.progress), methods=["GET"]),
        Route(f"{PREFIX}/stories", view.guarded(stories.sessions, toolset="story")),
        Route(f"{PREFIX}/story/{{session_id}}", view.guarded(stories.story, toolset="story")),
        Route(
            f"{PREFIX}/story/{{session_id}}/who/{{name}}",
            view.guarded(stories.character, toolset="story"),
        ),
        Route(
            f"{PREFIX}/story/{{session_id}}/correct",
            view.guarded(stories.correct, True, toolset="story"),
            methods=["POST"],
        ),
        Route(f"{PREFIX}/context", view.guarded(context.projects, toolset="context")),
        Route(
            f"{PREFIX}/context/{{project_id}}/{{file_type}}",
            view.guarded(context.file, toolset="context"),
        ),
        Route(f"{PREFIX}/checkpoints", view.guarded(checkpoints.sessions, toolset="checkpoints")),
        Route(
            f"{PREFIX}/checkpoints/{{session_id}}",
            view.guarded(checkpoints.timeline, toolset="checkpoints"),
        ),
        Route(
            f"{PREFIX}/checkpoint/{{checkpoint_id}}",
            view.guarded(checkpoints.checkpoint, toolset="checkpoints"),
        ),
        Mount(f"{PREFIX}/static", StaticFiles(directory=Path(__file__).parent / "static")),
    ]

    async def missing(request: Request, exc: Exception) -> Response:
        del exc
        return view.page(request, "error.html", None, 404, message="there is no such page")

    return Starlette(routes=routes, exception_handlers={404: missing}), view

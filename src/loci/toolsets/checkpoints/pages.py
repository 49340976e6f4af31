"""The checkpoints pages: the sessions, a session's timeline (size as stored and compression
of each checkpoint), and a checkpoint's content with each key's tier and size. An encrypted
checkpoint is opened only with the key this server is configured with; without it the page
says so and the content never reaches the page."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from loci.errors import EncryptionKeyError
from loci.faces.web.sessions import ViewSession
from loci.faces.web.view import PREFIX, View
from loci.toolsets.checkpoints.anatomy import bytes_by_tier, parts_of

#: Sessions and checkpoints a page lists.
PAGE = 50


class CheckpointPages:
    """The checkpoints pages of the view."""

    def __init__(self, view: View) -> None:
        self.view = view

    async def sessions(self, request: Request, session: ViewSession) -> Response:
        """The sessions, most recently saved first."""
        offset = _offset(request)
        found = await self.view.run(lambda app: app.checkpoints.list_sessions(PAGE, offset))
        return self.view.page(
            request, "checkpoint_sessions.html", session, listed=found, **_paging(offset)
        )

    async def timeline(self, request: Request, session: ViewSession) -> Response:
        """A session's checkpoints, newest first."""
        session_id = str(request.path_params["session_id"])
        offset = _offset(request)
        found = await self.view.run(
            lambda app: app.checkpoints.list_checkpoints(session_id, PAGE, offset)
        )
        names = {c["checkpointId"]: name_of(c["metadata"]) for c in found.checkpoints}
        return self.view.page(
            request, "checkpoint_timeline.html", session, listed=found, names=names,
            **_paging(offset),
        )  # fmt: skip

    async def checkpoint(self, request: Request, session: ViewSession) -> Response:
        """One checkpoint: its fields, its keys by tier and size, and its content."""
        checkpoint_id = str(request.path_params["checkpoint_id"])
        try:
            loaded = await self.view.run(lambda app: app.checkpoints.load(checkpoint_id))
        except EncryptionKeyError as exc:
            return self.view.page(
                request, "checkpoint.html", session, loaded=None, locked=exc.message,
                checkpoint_id=checkpoint_id,
            )  # fmt: skip
        pinned = await self.view.run(lambda app: app.checkpoints.pinned(loaded.session_id))
        parts = parts_of(loaded.context, loaded.metadata, pinned)
        return self.view.page(
            request,
            "checkpoint.html",
            session,
            loaded=loaded,
            locked=None,
            checkpoint_id=checkpoint_id,
            name=name_of(loaded.metadata),
            parts=parts,
            tiers=bytes_by_tier(parts),
            content=json.dumps(loaded.context, indent=2, ensure_ascii=False),
        )


def name_of(metadata: dict[str, Any]) -> str | None:
    """The name a checkpoint was saved with (`metadata.name`), if it has one."""
    name = metadata.get("name")
    return (name.strip() or None) if isinstance(name, str) else None


def _paging(offset: int) -> dict[str, Any]:
    """Where a page of a listing starts, and where the one before it does (None: this is the
    first)."""
    return {"offset": offset, "previous": max(0, offset - PAGE) if offset else None}


def _offset(request: Request) -> int:
    text = request.query_params.get("offset", "0")
    return int(text) if text.isdigit() and len(text) < 9 else 0


def routes(view: View) -> list[BaseRoute]:
    """The checkpoint pages: the sessions, a session's timeline, one checkpoint."""
    checkpoints = CheckpointPages(view)
    return [
        Route(f"{PREFIX}/checkpoints", view.guarded(checkpoints.sessions, toolset="checkpoints")),
        Route(
            f"{PREFIX}/checkpoints/{{session_id}}",
            view.guarded(checkpoints.timeline, toolset="checkpoints"),
        ),
        Route(
            f"{PREFIX}/checkpoint/{{checkpoint_id}}",
            view.guarded(checkpoints.checkpoint, toolset="checkpoints"),
        ),
    ]

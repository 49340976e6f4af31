"""The toy toolset's web page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from loci.faces.web.sessions import ViewSession
from loci.faces.web.view import PREFIX, View
from tests.toy_toolset.wiring import board


def routes(view: View) -> list[BaseRoute]:
    """`/ui/toy`: the pins, as text."""

    async def pinned(request: Request, session: ViewSession) -> Response:
        del request, session
        notes = view.provider.call(lambda app: board(app).pins())
        return PlainTextResponse("\n".join(notes))

    return [Route(f"{PREFIX}/toy", view.guarded(pinned, toolset="toy"))]

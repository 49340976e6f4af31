"""The web view's ASGI app: its routes under `/ui` and its static files, every answer behind
the Host check and carrying the view's security headers."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from loci import toolsets as registry
from loci.faces.web import security
from loci.faces.web.login import Login
from loci.faces.web.view import PREFIX, GrantLookup, Token, View

if TYPE_CHECKING:
    from loci.faces.mcp.provider import AppProvider


STATIC = Path(__file__).parent / "static"


def build_view(
    provider: AppProvider,
    token: Token | None,
    grants: GrantLookup | None,
    allowed_hosts: list[str],
) -> tuple[Secured, View]:
    """The view's app, and its frame (whose sessions `loci ui` gives a ticket of)."""
    view = View(provider, token, grants, allowed_hosts)
    login = Login(view)
    routes: list[BaseRoute] = [
        Route(f"{PREFIX}/login", login.form, methods=["GET"]),
        Route(f"{PREFIX}/login", login.submit, methods=["POST"]),
        Route(f"{PREFIX}/logout", view.guarded(login.logout), methods=["POST"]),
    ]
    for toolset in registry.TOOLSETS:
        for module in toolset.page_modules():
            routes.extend(module.routes(view))
    routes += [
        Route(security.FAVICON_PATH, favicon, methods=["GET"]),
        Mount(f"{PREFIX}/static", StaticFiles(directory=STATIC)),
    ]

    async def missing(request: Request, exc: Exception) -> Response:
        del exc
        return view.page(request, "error.html", None, 404, message="there is no such page")

    return Secured(Starlette(routes=routes, exception_handlers={404: missing}), view), view


async def favicon(request: Request) -> Response:
    """The view's icon, for a browser that asks for it where sites keep theirs."""
    del request
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


class Secured:
    """The view's app behind the checks every request of it passes, pages, static files and
    404s alike: the Host must name this server (DNS rebinding), and the URL must not carry a
    token (as `/mcp` refuses it: URLs end up in logs and history); every answer carries the
    security headers."""

    def __init__(self, app: Starlette, view: View) -> None:
        self.app = app
        self.view = view

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(Request(scope))
        if refusal is not None:
            await refusal(scope, receive, send)
            return

        async def secured(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in security.HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, secured)

    def _refusal(self, request: Request) -> Response | None:
        if not security.host_allowed(request, self.view.allowed_hosts):
            message = "this server does not answer for that host name"
            return self.view.page(request, "error.html", None, 421, message=message)
        if security.token_in(request.url.query):
            message = (
                "a token is never sent in a URL (URLs end up in logs and browser history): "
                "paste it into the login form. This one should now be rotated: "
                "`loci token rotate`"
            )
            return self.view.page(request, "error.html", None, 400, message=message)
        return None

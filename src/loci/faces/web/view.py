"""The web view's frame: who is visiting (the session behind the cookie), the pages' headers,
the checks on forms, and the errors shown as pages. The pages themselves are in
`memory_pages`; each runs the same services the MCP tools do, in a worker thread, one call at
a time with the tools' (`AppProvider.call`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import anyio.to_thread
import jinja2
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from loci import toolsets as registry
from loci.access.grant import Grant
from loci.errors import LociError, NotFoundError
from loci.faces.web import security
from loci.faces.web.sessions import ViewSession, ViewSessions, cookie_name, same_digest
from loci.faces.web.text import FILTERS

if TYPE_CHECKING:
    from loci.app import App
    from loci.faces.mcp.provider import AppProvider
    from loci.toolsets.memory.models import NamespaceInfo

T = TypeVar("T")
#: Where the view is served.
PREFIX = "/ui"
#: HTTP status of each loci error code shown as a page.
STATUS = {
    "invalid_input": 400,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "quota_exceeded": 507,
    "storage_unavailable": 503,
    "model_mismatch": 409,
}
#: Looks a presented named token up: what it may do, or None.
GrantLookup = Callable[[str], Awaitable[Grant | None]]
Handler = Callable[[Request, ViewSession], Awaitable[Response]]


class Token(Protocol):
    """The server's all-access token (`loci.faces.http.bearer.BearerToken`)."""

    def matches(self, presented: str) -> bool:
        """Whether `presented` is the token."""
        ...

    def value(self) -> str:
        """The token as it now stands (read again after a rotation)."""
        ...


class RefusedError(Exception):
    """A request the view does not serve, with the page's status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class View:
    """What every page of the view shares."""

    def __init__(
        self,
        provider: AppProvider,
        token: Token | None,
        grants: GrantLookup | None,
        allowed_hosts: list[str],
    ) -> None:
        self.provider = provider
        self.token = token
        self.grants = grants
        self.allowed_hosts = allowed_hosts
        self.sessions = ViewSessions()
        self._anonymous = ViewSession(grant=None, presented=None)
        self.templates = jinja2.Environment(
            # The frame's templates, then each toolset's, kept beside its pages.
            loader=jinja2.FileSystemLoader(
                [
                    Path(__file__).parent / "templates",
                    *(
                        folder
                        for toolset in registry.TOOLSETS
                        for folder in toolset.template_folders()
                    ),
                ]
            ),
            autoescape=True,  # every value is escaped unless a template says otherwise
            undefined=jinja2.StrictUndefined,
        )
        self.templates.filters.update(FILTERS)

    async def namespaces(self, session: ViewSession) -> list[NamespaceInfo]:
        """The namespaces the session sees, with their counts."""
        listed = await self.run(lambda app: app.catalog.namespaces("list").namespaces or [])
        return [item for item in listed if visible(session.grant, item.name)]

    async def run(self, work: Callable[[App], T]) -> T:
        """`work` on the App in a worker thread, serialised with the MCP tools' calls."""
        return await anyio.to_thread.run_sync(lambda: self.provider.call(work))

    def page(
        self,
        request: Request,
        template: str,
        session: ViewSession | None,
        status: int = 200,
        toolset: str = "memory",
        **context: Any,
    ) -> Response:
        """A rendered page with the view's security headers (its forms shown when the session
        may write to `toolset`), and the notices kept for it."""
        html = self.templates.get_template(template).render(
            prefix=PREFIX,
            session=session,
            can_write=session is not None and may(session.grant, toolset, True),
            signed_in=session is not None and self.token is not None,
            query=request.query_params,
            notices=session.told() if session is not None else [],
            **context,
        )
        return HTMLResponse(html, status_code=status, headers=security.HEADERS)

    def redirect(
        self, location: str, session: ViewSession | None = None, notice: str | None = None
    ) -> Response:
        """A 303 to another page of the view (after a form: the browser then GETs it), which
        shows `notice`: kept in the session, never carried in the URL (where anyone could
        write a link that makes the view say something)."""
        if session is not None and notice is not None:
            session.tell(notice)
        return RedirectResponse(location, status_code=303, headers=security.HEADERS)

    def cookie(self, request: Request) -> str:
        """The name of the session cookie of the port the browser reached the view on."""
        port = request.url.port or (443 if request.url.scheme == "https" else 80)
        return cookie_name(port)

    def guarded(
        self, handler: Handler, writes: bool = False, toolset: str = "memory"
    ) -> Callable[[Request], Awaitable[Response]]:
        """`handler` behind the view's checks (the Host is checked for every request, in
        `loci.faces.web.app`): a live session (else the login page), for a form that changes
        something its origin and form token, and loci's errors shown as pages."""

        async def endpoint(request: Request) -> Response:
            session: ViewSession | None = None
            try:
                session = await self.visitor(request)
                if session is None:
                    return self.redirect(f"{PREFIX}/login")
                if not may(session.grant, toolset, writes):
                    raise RefusedError(403, "this token may not do that")
                if request.method == "POST":
                    await self.checked_form(request, session)
                return await handler(request, session)
            except RefusedError as exc:
                return self.page(request, "error.html", session, exc.status, message=exc.message)
            except LociError as exc:
                return self.page(
                    request, "error.html", session, status_of(exc), message=exc.message
                )

        return endpoint

    async def visitor(self, request: Request) -> ViewSession | None:
        """The request's live session; with no token to ask for, the server's one session. A
        session whose token was revoked or rotated since it began ends."""
        if self.token is None:  # loopback without a token: one person, one session
            return self._anonymous
        session_id = request.cookies.get(self.cookie(request))
        session = self.sessions.get(session_id)
        if session is not None and not await self._token_stands(session):
            self.sessions.end(session_id)
            return None
        return session

    async def _token_stands(self, session: ViewSession) -> bool:
        """Whether the token that opened `session` still opens the server: a named one not
        revoked, the server's own not rotated since."""
        if session.presented is not None:
            return self.grants is not None and await self.grants(session.presented) is not None
        assert self.token is not None  # sessions are opened only where a token is asked for
        return same_digest(session.opened_with, self.token.value())

    async def checked_form(self, request: Request, session: ViewSession) -> FormData:
        """The form of a request that changes something, once it proved it came from the
        view's own page."""
        if not security.same_origin(request):
            raise RefusedError(403, "a form from another site may not change anything here")
        form = await request.form()
        if not security.form_token_matches(session.form_token, form.get("form_token")):
            raise RefusedError(403, "the form has expired: reload the page and try again")
        return form


def status_of(error: LociError) -> int:
    """The HTTP status of a page showing `error`: by its kind, or by the kind it is a case of
    (a checkpoint's `CHECKPOINT_NOT_FOUND` is a `not_found`)."""
    for kind in type(error).__mro__:
        code = getattr(kind, "code", None)
        if isinstance(code, str) and code in STATUS:
            return STATUS[code]
    return 500


def may(grant: Grant | None, toolset: str, writes: bool) -> bool:
    """Whether a session of `grant` may use `toolset` (writing, or not)."""
    return grant is None or grant.allows(toolset, writes)


def namespaces_of(grant: Grant | None) -> frozenset[str] | None:
    """The namespaces a session sees (None: every one)."""
    return None if grant is None else grant.namespaces


def visible(grant: Grant | None, namespace: str) -> bool:
    """Whether a session of `grant` sees memories of `namespace`."""
    owned = namespaces_of(grant)
    return owned is None or namespace in owned


def scope_of(grant: Grant | None, asked: str | None) -> str | None:
    """The namespace a page shows: the one asked for, if the session sees it (None: every
    one; a token limited to some namespaces, asking for none, gets its first)."""
    owned = namespaces_of(grant)
    if owned is None:
        return asked
    if asked is None:
        return min(owned) if owned else None
    if asked not in owned:
        raise NotFoundError(f"no namespace {asked} for this token")
    return asked


def one_of(form: Mapping[str, Any], name: str) -> str:
    """A form's field as text (missing: empty)."""
    value = form.get(name, "")
    return value if isinstance(value, str) else ""

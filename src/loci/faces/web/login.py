"""Logging in to the web view: the token presented once on a form (or `loci ui`'s one-time
ticket) becomes a session cookie; logging out ends the session."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from loci.access.grant import Grant
from loci.errors import LociError
from loci.faces.web import security
from loci.faces.web.sessions import ViewSession, digest
from loci.faces.web.view import PREFIX, RefusedError, View, one_of


class Login:
    """The login and logout pages."""

    def __init__(self, view: View) -> None:
        self.view = view

    async def form(self, request: Request) -> Response:
        """The login form; with a valid `ticket` (from `loci ui`), the session at once."""
        view = self.view
        ticket = request.query_params.get("ticket")
        if ticket is not None:
            if not view.sessions.redeem(ticket):
                return view.page(
                    request, "login.html", None, 401,
                    problem="that link has expired or was used already: run `loci ui` again, "
                    "or paste the token (`loci token show`)",
                )  # fmt: skip
            try:
                return self._signed_in(request, None, None)
            except LociError as exc:  # the token file cannot be read
                return view.page(request, "login.html", None, 503, problem=exc.message)
        if view.token is None:
            return view.redirect(f"{PREFIX}/")
        return view.page(request, "login.html", None, problem=None)

    async def submit(self, request: Request) -> Response:
        """Check the token presented; open a session for it."""
        view = self.view
        if not security.same_origin(request):
            return view.page(request, "error.html", None, 403, message="login from another site")
        presented = one_of(await request.form(), "token").strip()
        try:
            grant, named = await self._grant_of(presented)
            return self._signed_in(request, grant, presented if named else None)
        except RefusedError as exc:
            return view.page(request, "login.html", None, exc.status, problem=exc.message)
        except LociError as exc:
            return view.page(request, "login.html", None, 503, problem=exc.message)

    async def logout(self, request: Request, session: ViewSession) -> Response:
        """End the session."""
        del session
        cookie = self.view.cookie(request)
        self.view.sessions.end(request.cookies.get(cookie))
        response = self.view.redirect(f"{PREFIX}/login")
        response.delete_cookie(cookie, path=PREFIX)
        return response

    async def _grant_of(self, presented: str) -> tuple[Grant | None, bool]:
        """What the token may do, and whether it is a named one."""
        view = self.view
        if view.token is None or view.token.matches(presented):
            return None, False
        grant = await view.grants(presented) if view.grants is not None and presented else None
        if grant is None:
            raise RefusedError(401, "that is not a token of this server (`loci token show`)")
        return grant, True

    def _signed_in(self, request: Request, grant: Grant | None, named: str | None) -> Response:
        """A session for the token presented (or the ticket redeemed): one opened with the
        server's token remembers which, so that rotating the token ends it."""
        token = self.view.token
        opened_with = digest(token.value()) if named is None and token is not None else None
        session_id = self.view.sessions.open(grant, named, opened_with)
        response = self.view.redirect(f"{PREFIX}/")
        response.set_cookie(
            self.view.cookie(request),
            session_id,
            httponly=True,
            samesite="strict",
            path=PREFIX,
            secure=request.url.scheme == "https",
        )
        return response

"""The web view of facts that change: the open conflicts side by side, each settled with one
button (supersede the older by the newer, or dismiss the pair). A memory's page shows its
validity and its chain (`toolsets.memory.pages`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from loci.faces.web.sessions import ViewSession
from loci.faces.web.view import PREFIX, View, one_of, scope_of
from loci.toolsets.memory.pages import visible_memories


class ConflictPages:
    """The conflicts page and its two forms."""

    def __init__(self, view: View) -> None:
        self.view = view

    async def listing(self, request: Request, session: ViewSession) -> Response:
        """The open conflicts of a namespace (or of every one the session sees)."""
        namespace = scope_of(session.grant, request.query_params.get("namespace") or None)
        found = await self.view.run(lambda app: app.facts.open_conflicts(namespace))
        return self.view.page(
            request,
            "conflicts.html",
            session,
            conflicts=found.conflicts,
            namespace=namespace,
            namespaces=await self.view.namespaces(session),
        )

    async def supersede(self, request: Request, session: ViewSession) -> Response:
        """The older memory of a pair ends where the newer began."""
        older, newer = await self._pair(request, session)
        await self.view.run(lambda app: app.facts.supersede(older, new_id=newer))
        return self.view.redirect(f"{PREFIX}/conflicts", session, "Superseded.")

    async def dismiss(self, request: Request, session: ViewSession) -> Response:
        """The pair is not a contradiction: never flagged again."""
        older, newer = await self._pair(request, session)
        await self.view.run(lambda app: app.facts.dismiss_conflict(older, newer))
        return self.view.redirect(f"{PREFIX}/conflicts", session, "Dismissed.")

    async def _pair(self, request: Request, session: ViewSession) -> tuple[str, str]:
        """The form's two memories, if the session sees both (else: not found)."""
        form = await request.form()
        older, newer = one_of(form, "older"), one_of(form, "newer")
        await visible_memories(self.view, [older, newer], session)
        return older, newer


def routes(view: View) -> list[BaseRoute]:
    """`/ui/conflicts`, and its supersede and dismiss forms."""
    pages = ConflictPages(view)
    return [
        Route(f"{PREFIX}/conflicts", view.guarded(pages.listing), methods=["GET"]),
        Route(
            f"{PREFIX}/conflicts/supersede", view.guarded(pages.supersede, True), methods=["POST"]
        ),
        Route(f"{PREFIX}/conflicts/dismiss", view.guarded(pages.dismiss, True), methods=["POST"]),
    ]

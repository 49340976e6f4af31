"""The memories pages: search (the same `recall` as the tool) or browse page by page, one
memory with its neighbours, its edit form, and forgetting one or a selection after a
confirmation. A session of a token limited to some namespaces sees only those."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from loci.errors import InvalidInputError, NotFoundError
from loci.memory.models import Memory
from loci.storage.memory_pages import Shown
from loci.web.sessions import ViewSession
from loci.web.view import PREFIX, View, one_of, scope_of, visible

#: Hits a search shows, and memories a page shows.
SEARCH_LIMIT = 20
PAGE_SIZE = 50


class MemoryPages:
    """The memories pages of the view."""

    def __init__(self, view: View) -> None:
        self.view = view

    async def listing(self, request: Request, session: ViewSession) -> Response:
        """Search results for `q`, or a page of memories by the filters given."""
        params = request.query_params
        namespace = scope_of(session.grant, params.get("namespace") or None)
        query = (params.get("q") or "").strip()
        tag = params.get("tag") or None
        explain = params.get("explain") == "on"
        context: dict[str, Any] = {
            "namespaces": await self.view.namespaces(session),
            "namespace": namespace,
            "tag": tag,
            "q": query,
            "explain": explain,
            "next": None,
        }
        if query:
            filters = {"tags": tag} if tag else None
            found = await self.view.run(
                lambda app: app.memory.recall(
                    query, SEARCH_LIMIT, namespace, filters, explain=explain
                )
            )
            context["memories"] = found.memories
        else:
            shown = Shown(
                namespaces=frozenset({namespace}) if namespace else None,
                tag=tag,
                min_importance=_number(params.get("min_importance"), "min_importance") or 0.0,
                since=params.get("since") or None,
                until=params.get("until") or None,
            )
            oldest = params.get("order") == "oldest"
            after = params.get("after") or None
            page = await self.view.run(
                lambda app: app.browser.page(shown, after, PAGE_SIZE, oldest)
            )
            context.update(memories=page.memories, next=page.next)
        return self.view.page(request, "memories.html", session, **context)

    async def memory(self, request: Request, session: ViewSession) -> Response:
        """One memory: its text, fields and metadata, its neighbours, its edit form."""
        memory = await self._visible(request, session)
        nearby = await self.view.run(
            lambda app: app.memory.nearby(memory.id, 5, True, memory.namespace).neighbors
        )
        saved = request.query_params.get("saved") == "1"
        return self.view.page(
            request, "memory.html", session, memory=memory, nearby=nearby, saved=saved
        )

    async def save(self, request: Request, session: ViewSession) -> Response:
        """Save the edit form: text, tags and importance."""
        memory = await self._visible(request, session)
        form = await request.form()
        tags = [tag.strip() for tag in one_of(form, "tags").split(",") if tag.strip()]
        importance = _number(one_of(form, "importance"), "importance")
        await self.view.run(
            lambda app: app.editor.edit(
                memory.id, one_of(form, "content"), tags, importance, one_of(form, "read_at")
            )
        )
        return self.view.redirect(f"{PREFIX}/m/{memory.id}?saved=1")

    async def confirm_forget(self, request: Request, session: ViewSession) -> Response:
        """Ask before forgetting one memory."""
        memory = await self._visible(request, session)
        return self.view.page(request, "forget.html", session, memories=[memory])

    async def forget(self, request: Request, session: ViewSession) -> Response:
        """Forget one memory (the form of the confirmation page)."""
        memory = await self._visible(request, session)
        await self.view.run(lambda app: app.memory.forget(memory.id))
        return self.view.redirect(f"{PREFIX}/?forgot=1")

    async def forget_selected(self, request: Request, session: ViewSession) -> Response:
        """The memories ticked on a list: first a confirmation page, then, confirmed, gone."""
        form = await request.form()
        ids = [value for value in form.getlist("id") if isinstance(value, str)]
        # A selection is ticked on one page of the list.
        if not ids or len(ids) > PAGE_SIZE:
            raise InvalidInputError(f"select 1 to {PAGE_SIZE} memories to forget", field="id")
        memories = await self._visible_ids(ids, session)
        if one_of(form, "confirmed") != "yes":
            return self.view.page(request, "forget.html", session, memories=memories)
        done = await self.view.run(lambda app: app.memory.forget_batch([m.id for m in memories]))
        return self.view.redirect(f"{PREFIX}/?forgot={done.deleted}")

    async def _visible(self, request: Request, session: ViewSession) -> Memory:
        return (await self._visible_ids([str(request.path_params["memory_id"])], session))[0]

    async def _visible_ids(self, memory_ids: list[str], session: ViewSession) -> list[Memory]:
        """The memories (read in one call), if the session may see each (else: not found, as
        for a missing one)."""
        memories = await self.view.run(lambda app: [app.memory.get(i) for i in memory_ids])
        for memory in memories:
            if not visible(session.grant, memory.namespace):
                raise NotFoundError(f"no memory with id {memory.id}", memory_id=memory.id)
        return memories


def _number(text: str | None, field: str) -> float | None:
    """A number typed in a form (None when left empty)."""
    if not text or not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        raise InvalidInputError(
            f"{field} must be a number, got {text[:40]!r}", field=field
        ) from None

"""The memories pages: search (the same `recall` as the tool) or browse page by page, one
memory with its neighbours, its validity and versions, its edit form, forgetting one or a selection after a
confirmation, and the tags. A session of a token limited to some namespaces sees only those."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from loci.errors import InvalidInputError, NotFoundError
from loci.faces.web.listing import Filters, good_hits, number, pages, summary
from loci.faces.web.sessions import ViewSession
from loci.faces.web.text import reasons
from loci.faces.web.view import PREFIX, View, one_of, scope_of, visible
from loci.toolsets.memory.models import Memory
from loci.wording import counted

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
        filters = Filters.read(params)
        namespaces = await self.view.namespaces(session)
        context: dict[str, Any] = {
            "namespaces": namespaces,
            "namespace": namespace,
            "filters": filters,
            "q": query,
            "explain": params.get("explain") == "on",
            "weak": 0,
            "pages": None,
            "summary": "",
        }
        if query:
            context.update(await self._search(query, namespace, filters, params.get("weak")))
        else:
            context.update(await self._page(request, namespace, filters))
            total = sum(n.count for n in namespaces if namespace in (None, n.name))
            scope = f"in {namespace}" if namespace else "in every namespace"
            context["summary"] = summary(
                len(context["memories"]), context["pages"], PAGE_SIZE, total, filters.any, scope
            )
        return self.view.page(request, "memories.html", session, **context)

    async def _search(
        self, query: str, namespace: str | None, filters: Filters, weak: str | None
    ) -> dict[str, Any]:
        """The hits of `query` that match it well (all of them with `weak`), with why each
        ranked where it did."""
        # A person browsing is not an agent recalling: no access is counted.
        found = await self.view.run(
            lambda app: app.memory.recall(
                query,
                SEARCH_LIMIT,
                namespace,
                filters.recall_filter(),
                explain=True,
                record_access=False,
            )
        )
        hits, left_out = good_hits(found)
        if weak == "on":
            hits, left_out = found.memories, 0
        why = {
            hit.id: reasons(
                hit.signals or {}, found.weights, hit.similarity, hit.sequence is not None
            )
            for hit in hits
        }
        return {"memories": hits, "weak": left_out, "why": why}

    async def _page(
        self, request: Request, namespace: str | None, filters: Filters
    ) -> dict[str, Any]:
        """A page of the list, newest (or oldest) first, with the links to the others."""
        params = request.query_params
        oldest = params.get("order") == "oldest"
        after = params.get("after") or None
        shown = filters.shown(namespace)
        page = await self.view.run(lambda app: app.browser.page(shown, after, PAGE_SIZE, oldest))
        where = pages(f"{PREFIX}/", params, page.next)
        return {"memories": page.memories, "pages": where, "why": {}}

    async def memory(self, request: Request, session: ViewSession) -> Response:
        """One memory: its text, fields and metadata, its neighbours, its edit form."""
        memory = await self._visible(request, session)
        nearby = await self.view.run(
            lambda app: app.memory.nearby(memory.id, 5, True, memory.namespace).neighbors
        )
        chain = await self.view.run(lambda app: app.facts.history(memory.id).chain)
        shown = [version for version in chain if visible(session.grant, version.namespace)]
        return self.view.page(
            request, "memory.html", session, memory=memory, nearby=nearby, chain=shown
        )

    async def save(self, request: Request, session: ViewSession) -> Response:
        """Save the edit form: text, tags (one a line: a tag may hold a comma, never a line
        break) and importance."""
        memory = await self._visible(request, session)
        form = await request.form()
        tags = [tag.strip() for tag in one_of(form, "tags").splitlines() if tag.strip()]
        importance = number(one_of(form, "importance"), "importance")
        await self.view.run(
            lambda app: app.editor.edit(
                memory.id, one_of(form, "content"), tags, importance, one_of(form, "read_at")
            )
        )
        return self.view.redirect(f"{PREFIX}/m/{memory.id}", session, "Saved.")

    async def confirm_forget(self, request: Request, session: ViewSession) -> Response:
        """Ask before forgetting one memory."""
        memory = await self._visible(request, session)
        return self.view.page(request, "forget.html", session, memories=[memory])

    async def forget(self, request: Request, session: ViewSession) -> Response:
        """Forget one memory (the form of the confirmation page)."""
        memory = await self._visible(request, session)
        await self.view.run(lambda app: app.memory.forget(memory.id))
        return self.view.redirect(f"{PREFIX}/", session, "Forgot 1 memory.")

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
        notice = f"Forgot {counted(done.deleted, 'memory', 'memories')}."
        return self.view.redirect(f"{PREFIX}/", session, notice)

    async def tags(self, request: Request, session: ViewSession) -> Response:
        """The commonest tags (of a namespace, or of every one the session sees), each a link
        to its memories."""
        namespace = scope_of(session.grant, request.query_params.get("namespace") or None)
        found = await self.view.run(lambda app: app.catalog.stats(namespace).tag_distribution)
        return self.view.page(
            request,
            "tags.html",
            session,
            tags=found,
            namespace=namespace,
            namespaces=await self.view.namespaces(session),
        )

    async def _visible(self, request: Request, session: ViewSession) -> Memory:
        return (await self._visible_ids([str(request.path_params["memory_id"])], session))[0]

    async def _visible_ids(self, memory_ids: list[str], session: ViewSession) -> list[Memory]:
        return await visible_memories(self.view, memory_ids, session)


async def visible_memories(view: View, memory_ids: list[str], session: ViewSession) -> list[Memory]:
    """The memories (read in one call), if the session may see each (else: not found, as for
    a missing one)."""
    memories = await view.run(lambda app: [app.memory.get(i) for i in memory_ids])
    for memory in memories:
        if not visible(session.grant, memory.namespace):
            raise NotFoundError(f"no memory with id {memory.id}", memory_id=memory.id)
    return memories


def routes(view: View) -> list[BaseRoute]:
    """The memory pages: the listing, one memory, forgetting, tags."""
    memories = MemoryPages(view)
    return [
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
        Route(f"{PREFIX}/tags", view.guarded(memories.tags), methods=["GET"]),
    ]

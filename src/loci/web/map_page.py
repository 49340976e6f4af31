"""The map page: `visualize`'s picture of the memory space, drawn as SVG on the server (each
dot a link to its memory, its text shown on hover) and made zoomable and pannable by a small
script of the view's own. A search marks its hits on the same picture: the map is drawn
without them, so that the layout stays the one the store gives at every opening. Opening a
region draws its memories alone, coloured by the regions within it (`spatial.levels`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from loci.spatial.models import MAX_MAP_MEMORIES
from loci.web.sessions import ViewSession
from loci.web.view import View, scope_of

#: Hits of a search marked on the map.
HITS = 10
#: Drawing size of the map (SVG user units per map unit: the map spans -1 to 1).
SCALE = 500


class MapPage:
    """The map of the view."""

    def __init__(self, view: View) -> None:
        self.view = view

    async def map(self, request: Request, session: ViewSession) -> Response:
        """The map of a namespace (or every one), with the hits of `q` marked."""
        params = request.query_params
        namespace = scope_of(session.grant, params.get("namespace") or None)
        query = (params.get("q") or "").strip()
        region = params.get("region") or None
        drawn = await self.view.run(
            lambda app: app.maps.visualize("json", namespace, False, MAX_MAP_MEMORIES, (), region)
        )
        hits: list[str] = []
        if query:
            found = await self.view.run(lambda app: app.memory.recall(query, HITS, namespace))
            hits = [hit.id for hit in found.memories]
        on_map = {node.id for node in drawn.nodes or []}
        return self.view.page(
            request,
            "map.html",
            session,
            drawn=drawn,
            scale=SCALE,
            hits=set(hits),
            off_map=[hit for hit in hits if hit not in on_map],
            namespace=namespace,
            namespaces=await self.view.namespaces(session),
            q=query,
            region=region,
            trail=_trail(region),
        )


def _trail(region: str | None) -> list[str]:
    """The paths from the top down to `region` (`2.0.1` -> `2`, `2.0`, `2.0.1`)."""
    steps = region.split(".") if region else []
    return [".".join(steps[: n + 1]) for n in range(len(steps))]

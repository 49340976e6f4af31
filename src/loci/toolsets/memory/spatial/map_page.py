"""The map page: `visualize`'s picture of the memory space, drawn as SVG on the server (each
dot a link to its memory, its text shown beside it on hover) and made zoomable and pannable by
a small script of the view's own. A search marks its hits on the same picture: the map is
drawn without them, so that the layout stays the one the store gives at every opening.
Opening a region draws its memories alone, coloured by the regions within it
(`spatial.levels`); the legend says how many memories each region holds (the map draws a
sample of a large scope), and the trail above names the regions opened."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from loci.faces.web.listing import good_hits
from loci.faces.web.sessions import ViewSession
from loci.faces.web.view import PREFIX, View, scope_of
from loci.toolsets.memory.spatial.map_drawing import colors, dots, labels
from loci.toolsets.memory.spatial.models import MAX_MAP_MEMORIES, Region

if TYPE_CHECKING:
    from loci.app import App

#: Hits of a search marked on the map.
HITS = 10
#: Drawing size of the map (SVG user units per map unit: the map spans -1 to 1).
SCALE = 500
#: Radius of a dot of the least important memory (drawing units; the most important: twice).
RADIUS = 4.5


class Step(NamedTuple):
    """A region on the trail from the whole map down to the one shown."""

    path: str
    label: str
    keywords: list[str]


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
        shown, trail = await self.view.run(lambda app: _regions(app, namespace, region))
        hits: list[str] = []
        if query:
            found = await self.view.run(
                lambda app: app.memory.recall(
                    query, HITS, namespace, explain=True, record_access=False
                )
            )
            hits = [hit.id for hit in good_hits(found)[0]]
        nodes = drawn.nodes or []
        # Placing 500 dots takes a tenth of a second: not on the server's event loop.
        placed = await anyio.to_thread.run_sync(lambda: dots(nodes, SCALE, RADIUS))
        on_map = {node.id for node in nodes}
        palette = colors([node.cluster for node in nodes if node.cluster is not None])
        above = [word for step in trail for word in step.keywords]
        return self.view.page(
            request,
            "map.html",
            session,
            drawn=drawn,
            scale=SCALE,
            dots=placed,
            hits=set(hits),
            off_map=[hit for hit in hits if hit not in on_map],
            namespace=namespace,
            namespaces=await self.view.namespaces(session),
            q=query,
            region=region,
            trail=trail,
            regions=shown,
            names=labels(shown, above),
            palette=palette,
        )


def _regions(
    app: App, namespace: str | None, region: str | None
) -> tuple[list[Region], list[Step]]:
    """The regions within `region` (or of the whole scope), and the trail down to it, each
    step named as the map of the level above names it (the clusterings are those
    `visualize` just made, kept)."""
    regions = app.regions.regions(namespace, parent=region).clusters
    trail: list[Step] = []
    steps = region.split(".") if region else []
    for n, step in enumerate(steps):
        siblings = app.regions.regions(namespace, parent=".".join(steps[:n]) or None).clusters
        found = next(r for r in siblings if str(r.cluster_id) == step)
        named = labels(siblings, [word for kept in trail for word in kept.keywords])
        trail.append(Step(found.path, named[found.cluster_id], found.keywords))
    return regions, trail


def routes(view: View) -> list[BaseRoute]:
    """The map page."""
    drawn = MapPage(view)
    return [Route(f"{PREFIX}/map", view.guarded(drawn.map), methods=["GET"])]

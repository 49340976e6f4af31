"""A map of memories drawn as Mermaid or SVG text; every piece of memory text is escaped."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from loci.toolsets.memory.spatial.models import MapCluster, MapEdge, MapNode

#: Canvas of the SVG map, its margin, and the width of the legend beside it.
MAP_WIDTH, MAP_HEIGHT, MARGIN, LEGEND_WIDTH = 800, 600, 40, 260
#: Characters of a node's text shown in Mermaid and beside a highlighted SVG node.
SHOWN_CHARS = 48
OUTLIER_COLOR = "#9e9e9e"
#: Characters XML 1.0 cannot hold at all, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_MERMAID_ESCAPES = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "&": "#amp;", "`": "#96;"}


def mermaid(
    nodes: Sequence[MapNode], edges: Sequence[MapEdge], clusters: Sequence[MapCluster]
) -> str:
    """A Mermaid flowchart: one subgraph per region, outliers outside, edges if any."""
    names = {node.id: f"m{number}" for number, node in enumerate(nodes)}
    lines = ["flowchart LR"]
    for cluster in clusters:
        lines.append(f'  subgraph r{cluster.id}["{_mermaid_text(cluster.label)}"]')
        lines += [_mermaid_node(names[n.id], n) for n in nodes if n.cluster == cluster.id]
        lines.append("  end")
    lines += [_mermaid_node(names[n.id], n) for n in nodes if n.cluster is None]
    lines += [f"  {names[e.source]} --- {names[e.target]}" for e in edges]
    highlighted = [names[n.id] for n in nodes if n.highlighted]
    if highlighted:
        lines.append("  classDef highlighted stroke:#d62728,stroke-width:3px")
        lines.append(f"  class {','.join(highlighted)} highlighted")
    return "\n".join(lines) + "\n"


def svg(nodes: Sequence[MapNode], edges: Sequence[MapEdge], clusters: Sequence[MapCluster]) -> str:
    """A standalone SVG map: edges, nodes coloured by region (hover for the text), region
    labels at their centres, highlighted nodes ringed and named, and a legend."""
    width = MAP_WIDTH + LEGEND_WIDTH
    colors = {c.id: c.color for c in clusters}
    where = {n.id: _point(n.x, n.y) for n in nodes}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{MAP_HEIGHT}" '
        f'viewBox="0 0 {width} {MAP_HEIGHT}" font-family="Helvetica, Arial, sans-serif">',
        "<title>loci memory map</title>",
        f'<rect width="{width}" height="{MAP_HEIGHT}" fill="#ffffff"/>',
        '<g stroke="#8a8a8a" stroke-opacity="0.45">',
    ]
    for edge in edges:
        (x1, y1), (x2, y2) = where[edge.source], where[edge.target]
        stroke = 0.5 + 2.0 * max(0.0, edge.weight - 0.3)
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke-width="{stroke:.2f}"/>')
    parts.append("</g><g>")
    for node in sorted(nodes, key=lambda n: n.highlighted):  # highlighted drawn on top
        parts.append(_svg_node(node, where[node.id], colors))
    parts.append("</g>")
    parts += [_svg_region_label(c) for c in clusters]
    parts += _legend(clusters, nodes)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _mermaid_node(name: str, node: MapNode) -> str:
    return f'    {name}["{_mermaid_text(node.label[:SHOWN_CHARS])}"]'


def _mermaid_text(text: str) -> str:
    flat = " ".join(text.split())
    return "".join(_MERMAID_ESCAPES.get(char, char) for char in flat)


def _xml_text(text: str) -> str:
    return html.escape(_NOT_XML.sub("", text), quote=True)


def _point(x: float, y: float) -> tuple[float, float]:
    inner_width, inner_height = MAP_WIDTH - 2 * MARGIN, MAP_HEIGHT - 2 * MARGIN
    return (
        round(MARGIN + (x + 1) / 2 * inner_width, 1),
        round(MARGIN + (1 - (y + 1) / 2) * inner_height, 1),
    )


def _svg_node(node: MapNode, point: tuple[float, float], colors: dict[int, str]) -> str:
    x, y = point
    color = colors.get(node.cluster, OUTLIER_COLOR) if node.cluster is not None else OUTLIER_COLOR
    radius = 3.5 + 4.0 * node.importance + (3.0 if node.highlighted else 0.0)
    ring = ' stroke="#111111" stroke-width="2.5"' if node.highlighted else ' stroke="#ffffff"'
    circle = (
        f'<circle cx="{x}" cy="{y}" r="{radius:.1f}" fill="{color}"{ring}>'
        f"<title>{_xml_text(node.label)}</title></circle>"
    )
    if not node.highlighted:
        return circle
    text = _xml_text(node.label[:SHOWN_CHARS])
    return (
        f'{circle}<text x="{x + radius + 3:.1f}" y="{y + 4}" font-size="12" fill="#111111" '
        f'stroke="#ffffff" stroke-width="3" paint-order="stroke">{text}</text>'
    )


def _svg_region_label(cluster: MapCluster) -> str:
    x, y = _point(cluster.center[0], cluster.center[1])
    return (
        f'<text x="{x}" y="{y}" font-size="14" font-weight="bold" text-anchor="middle" '
        f'fill="{cluster.color}" stroke="#ffffff" stroke-width="4" paint-order="stroke" '
        f'opacity="0.9">{_xml_text(cluster.label)}</text>'
    )


def _legend(clusters: Sequence[MapCluster], nodes: Sequence[MapNode]) -> list[str]:
    left = MAP_WIDTH + 10
    parts = [f'<text x="{left}" y="{MARGIN}" font-size="14" font-weight="bold">Regions</text>']
    sizes = {c.id: sum(1 for n in nodes if n.cluster == c.id) for c in clusters}
    rows = [(c.color, f"{c.label} ({sizes[c.id]})") for c in clusters]
    outliers = sum(1 for n in nodes if n.cluster is None)
    if outliers:
        rows.append((OUTLIER_COLOR, f"no region ({outliers})"))
    for number, (color, text) in enumerate(rows):
        y = MARGIN + 22 + number * 20
        if y > MAP_HEIGHT - 10:
            parts.append(
                f'<text x="{left}" y="{y}" font-size="12">and {len(rows) - number} more</text>'
            )
            break
        parts.append(f'<rect x="{left}" y="{y - 10}" width="12" height="12" fill="{color}"/>')
        parts.append(f'<text x="{left + 18}" y="{y}" font-size="12">{_xml_text(text[:38])}</text>')
    return parts

"""How the view draws a map of `visualize`: dots moved apart just enough that none hides
another, a colour of its own for each region shown, and region labels that tell sub-regions
apart.

The layout stays the store's: a dot moves only when another already covers its place, to the
nearest free spot, in the order the map lists them (its most central memories first), so the
same store gives the same picture at every opening."""

from __future__ import annotations

import colorsys
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from loci.toolsets.memory.spatial.models import MapNode, Region

#: Region colours, each far from the others (Tableau 10 without its grey, then more of
#: Kelly's colours of maximum contrast); past these, hues a golden angle apart.
PALETTE = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
    "#ff9da7", "#9c755f", "#17becf", "#875692", "#8db600", "#882d17", "#0067a5",
    "#f6a600", "#b3446c", "#2b3d26", "#c2b280",
)  # fmt: skip
#: The colour of memories in no region.
OUTLIER_COLOR = "#9aa1ad"
#: Space kept between two dots (drawing units); spots tried for a dot at most.
GAP = 1.0
SPIRAL_STEPS = 5000
#: The angle between two spots of the spiral (radians): spots never line up.
GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))
#: A word in this share of the sibling regions' labels (or more) tells none of them apart.
SHARED = 0.5


@dataclass(frozen=True)
class Dot:
    """A memory drawn: where (drawing units, y downwards), how large, in which colour."""

    node: MapNode
    x: float
    y: float
    r: float
    color: str


def colors(regions: Sequence[int]) -> dict[int, str]:
    """A colour for each region shown, none repeated: the palette's, then each further one
    the colour farthest from those taken (among hues in steps of 10 degrees, in three
    lightnesses; past those, hues a golden angle apart)."""
    shown = sorted(set(regions))
    taken = list(PALETTE[: len(shown)])
    if len(taken) == len(shown):
        return dict(zip(shown, taken, strict=True))
    pool = [c for c in _candidates() if c not in taken]
    nearest = [min(color_distance(c, t) for t in taken) for c in pool]
    while len(taken) < len(shown) and pool:
        best = max(range(len(pool)), key=nearest.__getitem__)
        chosen = pool.pop(best)
        del nearest[best]
        taken.append(chosen)
        nearest = [min(d, color_distance(c, chosen)) for c, d in zip(pool, nearest, strict=True)]
    while len(taken) < len(shown):  # more regions than colours told apart: hues still differ
        red, green, blue = colorsys.hls_to_rgb((len(taken) * 0.618034) % 1, 0.45, 0.5)
        taken.append(f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}")
    return dict(zip(shown, taken, strict=True))


def color_distance(first: str, second: str) -> float:
    """How far apart two colours look ("redmean": RGB distance weighed as the eye does)."""
    (r1, g1, b1), (r2, g2, b2) = _rgb(first), _rgb(second)
    mean = (r1 + r2) / 2
    return math.sqrt(
        (2 + mean / 256) * (r1 - r2) ** 2
        + 4 * (g1 - g2) ** 2
        + (2 + (255 - mean) / 256) * (b1 - b2) ** 2
    )


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _candidates() -> list[str]:
    found = []
    for hue in range(0, 360, 10):
        for lightness in (0.3, 0.5, 0.7):
            red, green, blue = colorsys.hls_to_rgb(hue / 360, lightness, 0.65)
            found.append(f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}")
    return found


def dots(nodes: Sequence[MapNode], scale: float, radius: float) -> list[Dot]:
    """The nodes as dots of `radius` to twice that (by importance), each placed where the
    map puts it or, where another dot is already there, at the nearest free spot: no dot
    covers another."""
    palette = colors([n.cluster for n in nodes if n.cluster is not None])
    placed = Placement(2 * 2 * radius + GAP, scale)
    drawn = []
    for node in nodes:
        r = radius * (1.0 + node.importance)
        x, y = placed.free_spot(node.x * scale, -node.y * scale, r)
        color = palette[node.cluster] if node.cluster is not None else OUTLIER_COLOR
        drawn.append(Dot(node, round(x, 1), round(y, 1), round(r, 1), color))
    return drawn


class Placement:
    """Dots placed so far, by cell of a grid as wide as the largest dot (a dot can only
    touch dots of its own cell and the eight around it)."""

    def __init__(self, cell: float, bound: float) -> None:
        self.cell = cell
        self.bound = bound
        self.cells: dict[tuple[int, int], list[tuple[float, float, float]]] = {}

    def free_spot(self, x: float, y: float, r: float) -> tuple[float, float]:
        """The first spot, on a spiral out from (x, y), where a dot of radius `r` overlaps
        no dot placed (and stays within the map); the dot is placed there."""
        step = r + GAP / 2
        for k in range(SPIRAL_STEPS):
            # A sunflower spiral: spots evenly spread, the nearest tried first.
            distance = step * math.sqrt(k)
            at_x = x + distance * math.cos(k * GOLDEN_ANGLE)
            at_y = y + distance * math.sin(k * GOLDEN_ANGLE)
            if abs(at_x) <= self.bound and abs(at_y) <= self.bound and self._free(at_x, at_y, r):
                x, y = at_x, at_y
                break
        self.cells.setdefault(self._cell(x, y), []).append((x, y, r))
        return x, y

    def _free(self, x: float, y: float, r: float) -> bool:
        column, row = self._cell(x, y)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for ox, oy, other in self.cells.get((column + dx, row + dy), ()):
                    if (ox - x) ** 2 + (oy - y) ** 2 < (other + r + GAP) ** 2:
                        return False
        return True

    def _cell(self, x: float, y: float) -> tuple[int, int]:
        return math.floor(x / self.cell), math.floor(y / self.cell)


def hidden(drawn: Sequence[Dot]) -> int:
    """How many dots have their centre under another dot."""
    return sum(
        any(
            other is not dot and (other.x - dot.x) ** 2 + (other.y - dot.y) ** 2 < other.r**2
            for other in drawn
        )
        for dot in drawn
    )


def labels(regions: Sequence[Region], above: Sequence[str] = ()) -> dict[int, str]:
    """A label for each region that tells it apart from its siblings: its words less those
    of the region it is within (`above`) and those most siblings share; where nothing is
    left, or two labels would still be alike, the words of the memory at its centre that the
    other centres do not use."""
    common = set(above)
    if len(regions) > 1:
        counts = Counter(w for r in regions for w in set(r.keywords))
        common |= {w for w, n in counts.items() if n >= max(2, SHARED * len(regions))}
    chosen = {r.cluster_id: ", ".join(w for w in r.keywords if w not in common) for r in regions}
    repeated = Counter(chosen.values())
    centres = {r.cluster_id: r.centroid_memory.content.split() for r in regions}
    for region in regions:
        label = chosen[region.cluster_id]
        if label and repeated[label] == 1:
            continue
        others = [set(words) for key, words in centres.items() if key != region.cluster_id]
        hint = _hint(centres[region.cluster_id], others)
        chosen[region.cluster_id] = f"{label}: “{hint}”" if label else f"“{hint}”"
    return chosen


def _hint(words: list[str], others: list[set[str]], shown: int = 6) -> str:
    """The first words of a memory, from just before the first one that some other memory
    lacks (its start when every word is shared)."""
    differs = next(
        (n for n, word in enumerate(words) if any(word not in other for other in others)), 0
    )
    first = max(0, differs - 2)
    picked = words[first : first + shown]
    return ("…" if first else "") + " ".join(picked) + ("…" if first + shown < len(words) else "")

"""The map page through the real HTTP app (in process), on 25 regions of near-identical
notes: no dot hides another, no two regions share a colour, the legend gives each region's
size, the trail names the regions opened, sub-regions are told apart, and a nonsense search
marks nothing."""

from __future__ import annotations

import html
import itertools
import re

import pytest
from starlette.testclient import TestClient

from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.http.app import build_http_app
from loci.faces.http.bearer import BearerToken
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.spatial.map_drawing import color_distance
from tests.app.test_web_view import ORIGIN
from tests.topics import TOPICS

#: Two colours closer than this ("redmean" distance) are hard to tell apart on a map.
DISTINCT = 60.0
CIRCLE = re.compile(
    r'<a href="/ui/m/[^"]+" class="dot[^"]*"[^>]*>\s*<circle cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)"'
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, embedder: OnnxMiniLM) -> TestClient:
    home = tmp_path_factory.mktemp("map") / "home"
    settings = load_settings(home=home)
    app = build_app(settings, embedder=embedder)
    for start in range(0, len(TOPICS), 100):
        batch = TOPICS[start : start + 100]
        app.memory.remember_batch([MemoryDraft(content=t, namespace="topics") for t in batch])
    for text in ("Two notes are too few", "to make a region of"):
        app.memory.remember(MemoryDraft(content=text, namespace="pair"))
    app.close()
    made = TestClient(build_http_app(settings, embedder), base_url=ORIGIN, follow_redirects=False)
    answer = made.post(
        "/ui/login", data={"token": BearerToken(home).value()}, headers={"Origin": ORIGIN}
    )
    assert answer.status_code == 303
    return made


def legend(page: str) -> list[tuple[str, str, int | None]]:
    """(colour, label, size) of each region in the legend (size: None where not given)."""
    items = page.split('<ul class="regions">')[1].split("</ul>")[0].split("<li>")[1:]
    found = []
    for item in items:
        color = re.search(r'fill="(#[0-9a-f]{6})"', item)
        label = re.search(r'data-region="[^"]+"[^>]*>([^<]+)</a>', item)
        size = re.search(r'data-size="(\d+)"', item)
        assert color and label, item
        count = int(size.group(1)) if size else None
        found.append((color.group(1), html.unescape(label.group(1)), count))
    return found


def test_no_dot_hides_another(client: TestClient) -> None:
    page = client.get("/ui/map?namespace=topics").text
    dots = [(float(x), float(y), float(r)) for x, y, r in CIRCLE.findall(page)]
    assert len(dots) == len(TOPICS)
    covered = [
        (x, y)
        for n, (x, y, _) in enumerate(dots)
        if any(
            m != n and (x - ox) ** 2 + (y - oy) ** 2 < r**2 for m, (ox, oy, r) in enumerate(dots)
        )
    ]
    assert covered == []


def test_every_region_shown_has_a_colour_of_its_own(client: TestClient) -> None:
    regions = legend(client.get("/ui/map?namespace=topics").text)
    assert len(regions) == 25
    colors = [color for color, _, _ in regions]
    closest = min(color_distance(a, b) for a, b in itertools.combinations(colors, 2))
    assert closest >= DISTINCT


def test_the_legend_gives_each_regions_size(client: TestClient) -> None:
    page = client.get("/ui/map?namespace=topics").text
    regions = legend(page)
    sizes = [size or 0 for _, _, size in regions]
    assert sum(sizes) == len(TOPICS)  # no outliers here
    assert all(f"{size} memories" in page for size in sizes)


def test_the_trail_names_the_regions_opened_and_sub_regions_differ(client: TestClient) -> None:
    top = legend(client.get("/ui/map?namespace=topics").text)
    page = client.get("/ui/map?namespace=topics&region=0").text
    trail = html.unescape(page.split('<nav class="trail"')[1].split("</nav>")[0])
    assert top[0][1] in trail and "region 0" not in trail
    inner = legend(page)
    assert len(inner) >= 2
    labels = [label for _, label, _ in inner]
    assert len(set(labels)) == len(labels)


def test_a_nonsense_search_marks_nothing(client: TestClient) -> None:
    page = client.get("/ui/map?namespace=topics&q=qwzx+vbnm+plokij").text
    assert 'class="dot hit"' not in page


def test_a_map_of_a_few_memories_in_no_region(client: TestClient) -> None:
    page = client.get("/ui/map?namespace=pair")
    assert page.status_code == 200 and "none yet" in page.text
    assert len(CIRCLE.findall(page.text)) == 2

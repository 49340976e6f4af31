"""`visualize` on a real store, and the numpy HDBSCAN and t-SNE checked against scikit-learn."""

from __future__ import annotations

import json
import stat
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from sklearn.cluster import HDBSCAN
from sklearn.manifold import trustworthiness
from sklearn.metrics import adjusted_rand_score

from loci.app import App
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.spatial.hdbscan import hdbscan
from loci.toolsets.memory.spatial.layout import mutual_neighbours, project, upright
from loci.toolsets.memory.spatial.tsne import tsne
from tests.app.test_regions import TOPICS, remember_topics
from tests.cli_runner import run_loci

SVG = "{http://www.w3.org/2000/svg}"


def blobs(seed: int, dimensions: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(5, dimensions)) * 3
    return np.vstack([c + rng.normal(size=(60, dimensions)) for c in centres])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hdbscan_agrees_with_scikit_learn(seed: int) -> None:
    points = blobs(seed)
    for min_cluster_size, min_samples in ((5, 1), (5, 2), (3, 3)):
        ours = hdbscan(points, min_cluster_size, min_samples)
        reference = HDBSCAN(
            min_cluster_size=min_cluster_size, min_samples=min_samples, copy=True
        ).fit_predict(points)
        assert adjusted_rand_score(reference, ours) == pytest.approx(1.0)
        assert np.array_equal(ours < 0, reference < 0)


def test_hdbscan_on_too_few_points_and_duplicates() -> None:
    assert list(hdbscan(np.zeros((2, 3)), 3, 2)) == [-1, -1]
    same = np.vstack([np.zeros((6, 3)), np.ones((6, 3))])
    labels = hdbscan(same, 3, 2)
    assert len(set(labels[:6])) == 1 and len(set(labels[6:])) == 1 and labels[0] != labels[6]


def test_tsne_keeps_neighbourhoods() -> None:
    rng = np.random.default_rng(4)
    centres = rng.normal(size=(4, 32))
    vectors = np.vstack([c + 0.3 * rng.normal(size=(40, 32)) for c in centres]).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    layout = tsne(vectors)
    assert layout.shape == (160, 2) and np.isfinite(layout).all()
    assert trustworthiness(vectors, layout, n_neighbors=10, metric="cosine") > 0.9
    assert np.array_equal(layout, tsne(vectors))  # the same map every time


def test_a_map_has_one_orientation_whichever_mirror_the_projection_lands_on() -> None:
    rng = np.random.default_rng(5)
    centres = rng.normal(size=(3, 16))
    vectors = np.vstack([c + 0.3 * rng.normal(size=(20, 16)) for c in centres]).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    # Opposite vectors have the same distances; t-SNE lays them out as mirror images.
    assert not np.allclose(tsne(vectors), tsne(-vectors))
    assert np.array_equal(project(vectors), project(-vectors))
    layout = rng.normal(size=(50, 2)) * [3.0, 1.0] + [5.0, -2.0]
    for angle in (0.3, 1.9, 4.0):
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        for mirror in ([1.0, 1.0], [-1.0, 1.0]):
            moved = (layout * mirror) @ turn.T + 7.0
            assert np.allclose(upright(moved), upright(layout), atol=1e-9)


def test_mutual_neighbours_are_mutual_and_close() -> None:
    vectors = np.eye(4, dtype=np.float32)[[0, 0, 1, 1, 2]]
    vectors[1] += 0.1
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    pairs = {(i, j) for i, j, _ in mutual_neighbours(vectors)}
    assert (0, 1) in pairs and (2, 3) in pairs
    assert not any(4 in pair for pair in pairs)  # alone: nothing is similar enough


def test_json_map_has_every_region_and_highlight(app: App) -> None:
    topic_of = remember_topics(app)
    chosen = next(iter(topic_of))
    drawn = app.maps.visualize("json", include_edges=True, highlight_ids=[chosen])
    regions = app.regions.regions()
    assert drawn.node_count == 18 and drawn.total_memories == 18 and drawn.nodes is not None
    assert {c.id for c in drawn.clusters or []} == {r.cluster_id for r in regions.clusters}
    assert [n.id for n in drawn.nodes if n.highlighted] == [chosen]
    assert all(-1 <= n.x <= 1 and -1 <= n.y <= 1 for n in drawn.nodes)
    ids = {n.id for n in drawn.nodes}
    assert drawn.edges and all(e.source in ids and e.target in ids for e in drawn.edges)
    dumped = drawn.model_dump(mode="json")
    assert {"from", "to", "weight"} == set(dumped["edges"][0])
    assert drawn.bounds is not None and drawn.bounds.x_min == -1.0


def test_a_small_map_shows_every_region_and_keeps_highlights(app: App) -> None:
    topic_of = remember_topics(app)
    last = list(topic_of)[-1]
    drawn = app.maps.visualize("json", max_memories=3, highlight_ids=[last])
    assert drawn.nodes is not None and drawn.node_count == 3
    assert last in {n.id for n in drawn.nodes}
    assert len({topic_of[n.id] for n in drawn.nodes}) == 3


def test_mermaid_and_svg_escape_what_memories_contain(app: App) -> None:
    remember_topics(app)
    hostile = 'Use <script>alert("x")</script> & `ticks` #1 ]] --> end'
    marked = app.memory.remember(MemoryDraft(content=hostile)).id
    flow = app.maps.visualize("mermaid", include_edges=True, highlight_ids=[marked])
    assert flow.mermaid is not None and flow.mermaid.startswith("flowchart LR")
    assert "<script>" not in flow.mermaid and '"x"' not in flow.mermaid
    assert "#lt;script#gt;" in flow.mermaid and "class m" in flow.mermaid
    drawing = app.maps.visualize("svg", highlight_ids=[marked])
    assert drawing.svg is not None and drawing.width and drawing.height
    root = ET.fromstring(drawing.svg)  # well-formed XML
    assert root.tag == f"{SVG}svg"
    assert not list(root.iter(f"{SVG}script"))
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "Regions" in texts and any(t.startswith("Use <script>") for t in texts)
    assert len(list(root.iter(f"{SVG}circle"))) == 19


def test_visualize_refuses_bad_input_and_maps_empty_stores(app: App) -> None:
    empty = app.maps.visualize("svg")
    assert empty.node_count == 0 and empty.svg is not None
    ET.fromstring(empty.svg)
    app.memory.remember(MemoryDraft(content=TOPICS["cooking"][0]))
    single = app.maps.visualize("json")
    assert single.node_count == 1 and single.nodes is not None
    with pytest.raises(NotFoundError):
        app.maps.visualize(highlight_ids=["00000000-0000-4000-8000-000000000000"])
    with pytest.raises(NotFoundError):
        app.maps.visualize(namespace="missing")
    for bad in (
        {"format": "png"},
        {"max_memories": 0},
        {"max_memories": 501},
        {"highlight_ids": ["../../x"]},
    ):
        with pytest.raises(InvalidInputError):
            app.maps.visualize(**bad)  # type: ignore[arg-type]


def test_cli_writes_a_private_svg(app: App) -> None:
    remember_topics(app)
    target = app.settings.home.parent / "map.svg"
    done = run_loci(app.settings.home, "visualize", "--format", "svg", "-o", str(target))
    assert done.returncode == 0 and "18 of 18" in done.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    ET.fromstring(target.read_text())
    shown = run_loci(app.settings.home, "visualize", "--format", "json", "--max", "5")
    assert len(json.loads(shown.stdout)["nodes"]) == 5
    wrapped = json.loads(run_loci(app.settings.home, "visualize", "--json").stdout)
    assert wrapped["format"] == "svg" and wrapped["svg"].startswith("<svg")

"""Regions within regions: a level of fewer than a handful of regions is opened into the
regions within its largest; a region's own regions are reached by its path, through the
service, the map and the MCP tool."""

from __future__ import annotations

import numpy as np
import pytest

from loci.app import App
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.spatial.clustering import cluster
from loci.toolsets.memory.spatial.levels import HANDFUL, level
from tests.prose import made_sentences

#: One small subject beside a large body of prose: density finds two regions only.
GARDEN = [
    frame.format(t=thing)
    for thing in ("the tomatoes", "the compost heap", "the apple tree", "slugs", "the greenhouse")
    for frame in (
        "I keep thinking about {t} in the garden.",
        "Remember to check {t} in the garden tomorrow.",
        "We argued about {t} in the garden again.",
        "Notes on {t} in the garden: it went well.",
        "Spent the morning in the garden on {t}.",
        "A good idea for {t} in the garden.",
        "Is {t} in the garden worth the work?",
        "Ask Sam about {t} in the garden.",
        "The garden: {t} needs attention this week.",
        "Garden diary: {t} looked better today.",
    )
]
PROSE = made_sentences(400)


@pytest.fixture(scope="module")
def vectors(embedder: OnnxMiniLM) -> np.ndarray:
    return embedder.embed(GARDEN + PROSE)


@pytest.fixture
def store(app: App) -> App:
    for start in range(0, len(GARDEN + PROSE), 100):
        batch = (GARDEN + PROSE)[start : start + 100]
        app.memory.remember_batch([MemoryDraft(content=text) for text in batch])
    return app


def test_two_regions_are_opened_into_a_handful(vectors: np.ndarray) -> None:
    assert cluster(vectors, 3).count == 2  # the garden, and all of the prose
    found = level(vectors, 3, None)
    assert found.count >= HANDFUL
    garden = set(found.labels[: len(GARDEN)].tolist())
    assert len(garden) == 1 and garden != {-1}  # the small subject stays whole
    assert not set(found.labels[len(GARDEN) :].tolist()) & garden


def test_a_given_number_of_regions_is_kept(vectors: np.ndarray) -> None:
    assert level(vectors, 3, 2).count == 2


def test_the_regions_within_a_region_by_its_path(store: App) -> None:
    top = store.regions.regions()
    assert len(top.clusters) >= HANDFUL and top.parent is None
    assert [region.path for region in top.clusters] == [str(n) for n in range(len(top.clusters))]
    largest = top.clusters[0]
    inside = store.regions.regions(parent=largest.path)
    assert inside.parent == largest.path and inside.total_memories == largest.size
    assert all(region.path == f"{largest.path}.{region.cluster_id}" for region in inside.clusters)
    assert sum(region.size for region in inside.clusters) + inside.outliers.count == largest.size
    assert store.regions.regions(parent=largest.path).cached


def test_the_map_of_one_region(store: App) -> None:
    top = store.regions.region_map()
    members = {top.space.ids[row] for row in np.flatnonzero(top.clustering.labels == 0)}
    drawn = store.maps.visualize("json", max_memories=500, parent="0")
    assert drawn.total_memories == len(members)
    assert {node.id for node in drawn.nodes or []} <= members


@pytest.mark.parametrize("parent", ["99", "0.99"])
def test_a_region_that_does_not_exist(store: App, parent: str) -> None:
    with pytest.raises(NotFoundError):
        store.regions.regions(parent=parent)


@pytest.mark.parametrize("parent", ["", "x", "1..2", "-1", "1.2.3.4.5.6.7.8.9", "../0", "1234"])
def test_a_malformed_path_is_refused(store: App, parent: str) -> None:
    with pytest.raises(InvalidInputError):
        store.regions.regions(parent=parent)

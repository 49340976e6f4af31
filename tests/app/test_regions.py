"""`regions` and `wander` on a real store and model: subjects found, cached, shared."""

from __future__ import annotations

import json

import numpy as np
import pytest

from loci.app import App
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.spatial.clustering import cluster
from tests.cli_runner import run_loci

TOPICS = {
    "cooking": [
        "Simmer the tomato sauce with garlic and basil for twenty minutes.",
        "Knead the bread dough until it is smooth, then let it rise.",
        "Roast the vegetables in olive oil at two hundred degrees.",
        "Whisk the eggs and sugar before folding in the flour for the cake.",
        "Season the soup with salt and pepper and a little lemon juice.",
        "Fry the onions slowly in butter until they caramelise.",
    ],
    "astronomy": [
        "Jupiter is the largest planet of the solar system.",
        "The telescope showed the rings of Saturn clearly tonight.",
        "A light year is the distance light travels in one year.",
        "The Andromeda galaxy is the nearest large galaxy to the Milky Way.",
        "Neutron stars are the collapsed cores of massive stars.",
        "The comet's tail always points away from the Sun.",
    ],
    "databases": [
        "The SQL query joins the orders table with the customers table.",
        "Add an index on the email column to speed up the lookup query.",
        "Database transactions commit all their rows or none of them.",
        "The migration adds a column to the users table of the database.",
        "Postgres vacuums dead rows left behind by updates.",
        "A foreign key keeps each order row pointing at an existing customer.",
    ],
}


def remember_topics(app: App, namespace: str = "default") -> dict[str, str]:
    """Store the topics; the topic of each stored id."""
    topic_of = {}
    for topic, texts in TOPICS.items():
        for text in texts:
            topic_of[app.memory.remember(MemoryDraft(content=text, namespace=namespace)).id] = topic
    return topic_of


def test_regions_find_the_subjects_with_labels_and_centres(app: App) -> None:
    topic_of = remember_topics(app)
    found = app.regions.regions()
    assert found.total_memories == 18 and not found.cached
    assert len(found.clusters) == 3
    members: dict[int, set[str]] = {}
    for memory_id, topic in topic_of.items():
        walk = app.wanderer.wander(seed_id=memory_id, steps=1, randomness=0.0, random_seed=1)
        region = walk.journey[0].cluster
        if region is not None:
            members.setdefault(region, set()).add(topic)
    assert all(len(topics) == 1 for topics in members.values())  # no region mixes subjects
    for region in found.clusters:
        assert region.label and region.keywords and region.size >= 3
        assert topic_of[region.centroid_memory.id] == next(
            topic for topic, texts in TOPICS.items() if region.sample_contents[0] in texts
        )
        assert 0 < region.coherence <= 1
    assert sum(r.size for r in found.clusters) + found.outliers.count == 18
    assert found.clustering_quality is not None and found.clustering_quality > 0


def test_regions_are_cached_until_the_memories_change(app: App) -> None:
    remember_topics(app)
    first = app.regions.regions()
    again = app.regions.regions()
    assert again.cached and again.clusters == first.clusters
    app.memory.remember(MemoryDraft(content="Mars has two small moons, Phobos and Deimos."))
    changed = app.regions.regions()
    assert not changed.cached and changed.total_memories == 19


def test_regions_of_one_namespace_and_a_given_number(app: App) -> None:
    remember_topics(app, "notes")
    app.memory.remember(MemoryDraft(content="Elsewhere entirely", namespace="other"))
    scoped = app.regions.regions(namespace="notes")
    assert scoped.total_memories == 18
    two = app.regions.regions(namespace="notes", num_clusters=2)
    assert len(two.clusters) == 2 and two.outliers.count == 0
    assert sum(r.size for r in two.clusters) == 18


def test_regions_of_empty_tiny_and_unknown_scopes(app: App) -> None:
    empty = app.regions.regions()
    assert empty.total_memories == 0 and empty.clusters == [] and empty.outliers.count == 0
    app.memory.remember(MemoryDraft(content="Only one memory"))
    one = app.regions.regions()
    assert one.clusters == [] and one.outliers.count == 1 and one.clustering_quality is None
    with pytest.raises(NotFoundError):
        app.regions.regions(namespace="missing")
    for bad in ({"min_cluster_size": 1}, {"num_clusters": 0}, {"namespace": "../etc"}):
        with pytest.raises(InvalidInputError):
            app.regions.regions(**bad)  # type: ignore[arg-type]


def test_clustering_keeps_far_points_out_and_numbers_by_size() -> None:
    rng = np.random.default_rng(3)
    centres = rng.normal(size=(2, 16))
    points = [
        c + rng.normal(scale=0.05, size=(n, 16)) for c, n in zip(centres, (12, 6), strict=True)
    ]
    lonely = -centres.sum(axis=0, keepdims=True)
    vectors = np.vstack([*points, lonely]).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    found = cluster(vectors, 3)
    assert found.count >= 2
    assert not set(found.labels[:12]) & set(found.labels[12:18])  # the blobs never share one
    assert -1 not in found.labels[:18] and found.labels[18] == -1
    sizes = np.bincount(found.labels[found.labels >= 0])
    assert list(sizes) == sorted(sizes, reverse=True)


def test_wander_is_reproducible_and_visits_each_memory_once(app: App) -> None:
    topic_of = remember_topics(app)
    first = app.wanderer.wander(seed="planets and stars", steps=10, randomness=0.3, random_seed=9)
    again = app.wanderer.wander(seed="planets and stars", steps=10, randomness=0.3, random_seed=9)
    assert first == again
    walked = [step.memory.id for step in first.journey]
    assert len(walked) == 11 and len(set(walked)) == 11
    assert topic_of[walked[0]] == "astronomy" and first.journey[0].jump_type == "start"
    assert {s.jump_type for s in first.journey[1:]} <= {"neighbor", "random"}
    regions = {s.cluster for s in first.journey if s.cluster is not None}
    assert first.unique_clusters_visited == len(regions)
    distance = sum(
        1 - s.similarity_to_previous for s in first.journey[1:] if s.similarity_to_previous
    )
    assert first.total_distance_traveled == pytest.approx(distance, abs=1e-3)


def test_randomness_is_the_chance_of_a_jump(app: App) -> None:
    remember_topics(app)
    near = app.wanderer.wander(steps=10, randomness=0.0, random_seed=2)
    far = app.wanderer.wander(steps=10, randomness=1.0, random_seed=2)
    assert {s.jump_type for s in near.journey[1:]} == {"neighbor"}
    assert {s.jump_type for s in far.journey[1:]} == {"random"}
    jumps = [
        s.jump_type == "random"
        for seed in range(20)
        for s in app.wanderer.wander(steps=10, randomness=0.3, random_seed=seed).journey[1:]
    ]
    assert 0.15 < sum(jumps) / len(jumps) < 0.45  # 200 draws of a 0.3 chance
    unseeded = app.wanderer.wander(steps=3)
    assert unseeded == app.wanderer.wander(steps=3, random_seed=unseeded.random_seed)


def test_wander_stops_when_everything_is_visited_and_refuses_bad_input(app: App) -> None:
    ids = [app.memory.remember(MemoryDraft(content=t)).id for t in TOPICS["cooking"][:3]]
    short = app.wanderer.wander(seed_id=ids[0], steps=20)
    assert len(short.journey) == 3
    with pytest.raises(NotFoundError):
        app.wanderer.wander(seed_id="00000000-0000-4000-8000-000000000000")
    with pytest.raises(NotFoundError):
        app.wanderer.wander(namespace="missing")
    for bad in (
        {"seed": "x", "seed_id": ids[0]},
        {"steps": 0},
        {"steps": 21},
        {"randomness": 1.5},
        {"random_seed": -1},
        {"seed_id": "../../etc/passwd"},
        {"seed": ""},
    ):
        with pytest.raises(InvalidInputError):
            app.wanderer.wander(**bad)  # type: ignore[arg-type]


def test_wander_in_an_empty_store_says_so(app: App) -> None:
    with pytest.raises(NotFoundError, match="no memories"):
        app.wanderer.wander()


def test_cli_regions_and_wander(app: App) -> None:
    remember_topics(app)
    home = app.settings.home
    listed = run_loci(home, "regions")
    assert listed.returncode == 0 and "18 memories" in listed.stdout
    as_json = json.loads(run_loci(home, "regions", "--json").stdout)
    assert len(as_json["clusters"]) == 3
    walked = run_loci(
        home, "wander", "--seed", "baking bread", "--steps", "3", "--random-seed", "5"
    )
    assert walked.returncode == 0 and "start" in walked.stdout and "seed 5" in walked.stdout
    refused = run_loci(home, "wander", "--seed", "x", "--seed-id", "nope")
    assert refused.returncode != 0 and "seed" in refused.stderr

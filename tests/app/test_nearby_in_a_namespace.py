"""`nearby` and `journey` kept to one namespace: the given memories must be in it, and every
memory they return is."""

from __future__ import annotations

import pytest

from loci.app import App
from loci.errors import NotFoundError
from loci.toolsets.memory.models import MemoryDraft


def stored(app: App) -> dict[str, list[str]]:
    ids: dict[str, list[str]] = {"mine": [], "theirs": []}
    for space in ids:
        for number in range(5):
            draft = MemoryDraft(f"{space}: roses in the garden, note {number}", namespace=space)
            ids[space].append(app.memory.remember(draft).id)
    return ids


def test_nearby_in_a_namespace_returns_only_its_memories(app: App) -> None:
    ids = stored(app)
    found = app.memory.nearby(ids["mine"][0], limit=10, namespace="mine")
    assert len(found.neighbors) == 4
    assert all(hit.namespace == "mine" for hit in found.neighbors)
    everywhere = app.memory.nearby(ids["mine"][0], limit=10)
    assert {hit.namespace for hit in everywhere.neighbors} == {"mine", "theirs"}
    with pytest.raises(NotFoundError, match="in namespace mine"):
        app.memory.nearby(ids["theirs"][0], namespace="mine")


def test_a_journey_in_a_namespace_walks_only_its_memories(app: App) -> None:
    ids = stored(app)
    path = app.journeys.journey(ids["mine"][0], ids["mine"][1], steps=6, namespace="mine")
    walked = [step.nearest_memory.id for step in path.path if step.nearest_memory]
    assert walked and not set(walked) & set(ids["theirs"])
    with pytest.raises(NotFoundError, match="in namespace mine"):
        app.journeys.journey(ids["mine"][0], ids["theirs"][0], namespace="mine")

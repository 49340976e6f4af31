"""Random filters, well- and ill-formed, never crash recall or forget: each is applied or
refused as invalid input, and a refused one changes nothing."""

from __future__ import annotations

import random
from typing import Any

from loci.app import App
from loci.errors import LociError
from loci.toolsets.memory.models import MemoryDraft

EDGE_VALUES: list[Any] = [
    0, 1, -1, 0.5, 1e308, -1e308, 2**63 - 1, -(2**63), 2**63, True, False, None, "", "a",
    "x" * 300, "2024-01-01", "2024-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00",
    "9999-12-31T23:59:59Z", "\x00", "\ud800", "%", "_", "'", '"', "{}", [], [1], ["a"],
    [None], {}, {"a": 1}, [[1]], float("inf"), float("nan"), "naïve",
]  # fmt: skip
FIELDS = [
    "namespace", "source", "content", "tags", "importance", "access_count", "created_at",
    "updated_at", "last_accessed", "metadata.k", "metadata.a.b", "metadata.", "bogus", "",
]  # fmt: skip
OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "near"]
STORED_METADATA: list[Any] = [1, "x", [1, 2], ["a"], {"b": 2}, None, True, 2.5, [[1]]]


def random_filter(rng: random.Random, depth: int = 0) -> dict[str, Any]:
    """One node of the filter grammar: a group, a shorthand group, a test or a shorthand test."""
    roll = rng.random()
    if depth < 3 and roll < 0.2:
        children = [random_filter(rng, depth + 1) for _ in range(rng.randint(0, 3))]
        return {"operator": rng.choice(["and", "or", "xor"]), "filters": children}
    if depth < 3 and roll < 0.3:
        return {rng.choice(["and", "or"]): [random_filter(rng, depth + 1) for _ in range(2)]}
    value = rng.choice(EDGE_VALUES)
    if rng.random() < 0.2:
        value = [rng.choice(EDGE_VALUES) for _ in range(rng.randint(0, 4))]
    if roll < 0.6:
        return {"field": rng.choice(FIELDS), "operator": rng.choice(OPERATORS), "value": value}
    if roll < 0.8:
        return {rng.choice(FIELDS): {rng.choice(OPERATORS): value}}
    return {rng.choice(FIELDS): value}


def test_random_filters_are_applied_or_refused_never_crash(app: App) -> None:
    rng = random.Random(24)
    for i in range(40):
        app.memory.remember(
            MemoryDraft(
                f"memory {i} text",
                namespace=rng.choice(["default", "other"]),
                tags=rng.sample(["a", "b", "c"], rng.randint(0, 3)),
                importance=rng.random(),
                metadata={
                    "k": rng.choice(STORED_METADATA),
                    "a": {"b": rng.choice(STORED_METADATA)},
                },
            )
        )
    applied = refused = 0
    for _ in range(3000):
        spec = random_filter(rng)
        try:
            if rng.random() < 0.8:
                app.memory.recall("memory text", filters=spec, hybrid_alpha=rng.choice([0.0, 0.5]))
            else:
                app.memory.forget(filters=spec, dry_run=True)
            applied += 1
        except LociError:
            refused += 1
    assert applied > 100 and refused > 100  # both kinds were tried
    assert app.catalog.stats().total_memories == 40

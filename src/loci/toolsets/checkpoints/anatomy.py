"""What a stored checkpoint is made of: each top-level key's tier (as its save classified it:
the session's pinned keys and the checkpoint's own priorities first) and size, and the bytes
of each tier."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from loci.toolsets.checkpoints.classify import Tier, classify, marks_of, tier_of


@dataclass(frozen=True)
class Part:
    """One top-level key of a context: its tier and its size as JSON."""

    key: str
    tier: Tier
    size_bytes: int


def parts_of(context: dict[str, Any], metadata: dict[str, Any], pinned: list[str]) -> list[Part]:
    """The context's top-level keys, most important first, then largest first."""
    classified = classify(context, marks_of(pinned, metadata))
    order = list(Tier)
    parts = [
        Part(key, tier_of(key, classified), len(json.dumps(value, ensure_ascii=False).encode()))
        for key, value in context.items()
    ]
    return sorted(parts, key=lambda part: (order.index(part.tier), -part.size_bytes, part.key))


def bytes_by_tier(parts: list[Part]) -> dict[str, int]:
    """The bytes of each tier (every tier named, most important first)."""
    sizes = {tier.value: 0 for tier in Tier}
    for part in parts:
        sizes[part.tier.value] += part.size_bytes
    return sizes

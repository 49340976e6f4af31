"""A corpus of distinct memories with planted near-duplicates, for `consolidate`.

The distinct memories are the observations LoCoMo's annotators wrote (facts about the people
of each conversation: memory-like text nobody on the team wrote). A near-duplicate of one is
the same text in another case, without its punctuation, with one word changed, or (for a
memory of two observations) with its sentences in the other order.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

KINDS = ("case", "punctuation", "word", "reordered")


@dataclass(frozen=True)
class Planted:
    """The memories to store, and the pairs (by position) that are duplicates, with kinds."""

    texts: list[str]
    pairs: list[tuple[int, int, str]]


def observations(path: Path) -> list[str]:
    """Every distinct observation of a LoCoMo file."""
    found: list[str] = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        for session in sample.get("observation", {}).values():
            for facts in session.values():
                found += [fact[0] for fact in facts]
    return list(dict.fromkeys(found))


def planted(path: Path, distinct: int = 800, per_kind: int = 40, seed: int = 0) -> Planted:
    """`distinct` observations, `per_kind` of them (different ones) duplicated each way."""
    pool = observations(path)
    rng = random.Random(seed)
    rng.shuffle(pool)
    texts = pool[:distinct]
    spare = iter(pool[distinct:])
    pairs: list[tuple[int, int, str]] = []
    for number in range(per_kind * len(KINDS)):
        kind = KINDS[number // per_kind]
        if kind == "reordered":
            texts[number] = f"{texts[number]} {next(spare)}"
        texts.append(variant(texts[number], kind, rng, pool))
        pairs.append((number, len(texts) - 1, kind))
    return Planted(texts, pairs)


def variant(text: str, kind: str, rng: random.Random, pool: list[str]) -> str:
    """`text` as a near-duplicate of the given kind (`pool` gives the changed word)."""
    if kind == "case":
        return text.upper() if rng.random() < 0.5 else text.lower()
    if kind == "punctuation":
        return re.sub(r"[^\w\s]", "", text) + "!"
    if kind == "word":
        words = text.split()
        longest = max(range(1, len(words)), key=lambda i: len(words[i]))
        words[longest] = max(rng.choice(pool).split(), key=len).strip(".,!?")
        return " ".join(words)
    return " ".join(reversed(re.split(r"(?<=[.!?])\s+", text)))

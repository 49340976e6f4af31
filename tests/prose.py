"""English sentences for tests: a novel's when `../shared` is beside the repository, else
sentences made here, so that a bare clone runs the same tests on text of its own."""

from __future__ import annotations

import random
import re
from pathlib import Path

NOVEL = (
    Path(__file__).resolve().parents[2] / "shared" / "eval" / "novels" / "pride-and-prejudice.txt"
)

_NAMES = ["Elizabeth", "Mr. Darcy", "Jane", "Mr. Bingley", "Mr. Collins", "Lydia", "Mrs. Bennet"]
_PLACES = ["Longbourn", "Netherfield", "Brighton", "London", "Pemberley", "Meryton", "Rosings"]
_VERBS = [
    "wrote a letter to",
    "danced twice with",
    "would never marry",
    "walked to the village with",
    "laughed at",
    "was introduced to",
    "thought very little of",
    "spoke warmly of",
    "could not forgive",
    "hoped to see",
]
_TAILS = [
    "at the ball",
    "before dinner",
    "after the rain had stopped",
    "with the officers",
    "in spite of her mother",
    "because of the entail",
    "although nobody believed it",
    "on a fine morning in May",
    "while the others played cards",
    "",
]


def sentences(count: int) -> list[str]:
    """`count` sentences of more than three words, the same ones on every call."""
    if NOVEL.exists():
        text = NOVEL.read_bytes().decode("cp1252", errors="replace").replace("\r\n", " ")
        found = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) > 3]
        if len(found) >= count:
            return found[:count]
    return made_sentences(count)


def made_sentences(count: int, seed: int = 7) -> list[str]:
    """Sentences of names, places and deeds, word frequencies uneven as in real prose."""
    rng = random.Random(seed)
    made: list[str] = []
    for _ in range(count):
        subject, other = rng.sample(_NAMES, 2)
        place = rng.choice(_PLACES)
        tail = rng.choices(_TAILS, weights=range(len(_TAILS), 0, -1))[0]
        sentence = f"{subject} {rng.choice(_VERBS)} {other} at {place} {tail}".strip()
        made.append(sentence + rng.choice([".", ".", ".", "!", "?"]))
    return made

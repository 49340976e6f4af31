"""Story text for tests: varied prose made from a seed, so that passages differ."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from loci.app import App

SUBJECTS = [
    "The rain",
    "A cart",
    "The old miller",
    "Her brother",
    "The river",
    "A stranger",
    "The schoolmaster",
    "The bells",
    "A fox",
    "The baker's boy",
    "The wind",
    "The ferry",
]
VERBS = [
    "crossed",
    "followed",
    "watched",
    "circled",
    "ignored",
    "reached",
    "disturbed",
    "remembered",
    "passed",
    "mended",
    "carried",
    "counted",
]
OBJECTS = [
    "the empty market",
    "a line of poplars",
    "the chapel roof",
    "the lower meadow",
    "three sacks of barley",
    "the toll bridge",
    "a broken lantern",
    "the orchard wall",
    "the frozen pond",
    "a stack of letters",
    "the mill race",
    "the north road",
]
TAILS = [
    "before noon",
    "without a word",
    "as the light failed",
    "for the second time",
    "while the dogs slept",
    "in the grey morning",
    "after supper",
    "despite the cold",
]


def filler(seed: int, sentences: int = 12) -> str:
    """A paragraph or two of plain narrative, different for every seed."""
    pick = random.Random(seed)
    said = [
        f"{pick.choice(SUBJECTS)} {pick.choice(VERBS)} {pick.choice(OBJECTS)} {pick.choice(TAILS)}."
        for _ in range(sentences)
    ]
    half = sentences // 2
    return " ".join(said[:half]) + "\n\n" + " ".join(said[half:])


def told(app: App, session: str, paragraphs: list[str], times: int = 3) -> None:
    """Write `paragraphs` into `session` `times` over, one interaction each (numbered, so no
    two are the same), and work the cast out at the end, as an import does."""
    written(app, session, paragraphs, times)
    app.story.resolve_cast(session)


def written(app: App, session: str, paragraphs: list[str], times: int = 3) -> None:
    """Write `paragraphs` into `session` `times` over, one interaction each (numbered), as a
    story written a piece at a time is: no import's end."""
    for number, text in enumerate(paragraphs * times):
        app.story.continue_story(session, "", f"{text} ({number})")

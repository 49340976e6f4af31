"""Whether an epithet keeps a character's company: "the Captain" written in the paragraphs
that name Captain Hawkes, or in the passages around them far more often than elsewhere, or
said where the people he meets are met; and whether a name is written in a text."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from loci.toolsets.story.entity import Entity

if TYPE_CHECKING:
    from loci.toolsets.story.epithets import Epithet

#: The least share of an epithet's paragraphs (or passages) that name its character too.
EPITHET_COMPANY = 0.1
#: The paragraphs on each side of an epithet's own that make its passage: a journal names
#: "Count Dracula" once and says "the Count" in the paragraphs after.
PASSAGE_PARAGRAPHS = 2
#: The fewest paragraphs an epithet is written in for it to be suggested without the company
#: of its character's name (see `named_mostly_so`): a habit of the story, not a few chance uses.
EPITHET_ALONE_LEAST = 6
#: How many times as often as the story's other passages an epithet's passages must name its
#: character, when its own paragraphs do not: company, not chance.
PASSAGE_LIFT = 1.5
#: How alike (cosine) the people met beside an epithet and beside its one carrier must be for
#: chance company to do.
SAME_COMPANY = 0.5


def keeps_company(
    epithet: Epithet, carrier: Entity, paragraphs: Sequence[str], sole: bool = False
) -> list[str]:
    """The paragraphs (else passages) where `epithet` keeps `carrier`'s company, or none
    when it does not: "the Captain" stands where Captain Hawkes is named too, or in the
    passages that name him far more often than the story's other passages do; "the King"
    of a story told of many kings does neither. The story's `sole` carrier of the title, who
    meets the same people the epithet does, need only be named near it as often as
    elsewhere: a short story's captain, named in half its passages, cannot be named near his
    epithet far more often than by chance."""
    beside = [p for p in epithet.paragraphs if names_any(carrier, p)]
    if len(beside) >= EPITHET_COMPANY * len(epithet.paragraphs):
        return beside
    beside = [p for p in epithet.passages if names_any(carrier, p)]
    share = len(beside) / len(epithet.passages)
    lift = 1.0 if sole else PASSAGE_LIFT
    if share < EPITHET_COMPANY or share < lift * _chance(epithet, carrier, paragraphs):
        return []
    return beside


def same_company(
    epithet: Epithet, carrier: Entity, characters: Sequence[Entity], paragraphs: Sequence[str]
) -> bool:
    """Whether the others named in the epithet's paragraphs are those named in its carrier's,
    much as often (cosine at least SAME_COMPANY): "the Captain" gives orders to the crew
    Captain Whitlock does, where "the King" of an old song meets no one King Olaf meets."""
    others = [c for c in characters if c.id != carrier.id]
    mine = [p for p in paragraphs if names_any(carrier, p)]
    first = [sum(names_any(o, p) for p in epithet.paragraphs) for o in others]
    second = [sum(names_any(o, p) for p in mine) for o in others]
    dot = sum(a * b for a, b in zip(first, second, strict=True))
    norms = math.hypot(*first) * math.hypot(*second)
    return bool(norms) and dot / norms >= SAME_COMPANY


def named_mostly_so(epithet: Epithet, carrier: Entity, paragraphs: Sequence[str]) -> bool:
    """Whether the story's one carrier of the title is mostly named by the epithet: in at
    least twice as many paragraphs as by a name of theirs ("Colonel Pembury", named in two
    paragraphs, is "the Colonel" in eleven: too seldom named for company to tell anything).
    A king named as often as "the King" is written may be one of many kings."""
    written = len(set(epithet.paragraphs))
    if written < EPITHET_ALONE_LEAST:
        return False
    return 2 * sum(names_any(carrier, p) for p in paragraphs) <= written


def _chance(epithet: Epithet, carrier: Entity, paragraphs: Sequence[str]) -> float:
    """The share of the paragraphs not writing `epithet` whose passage names `carrier`."""
    marked = [names_any(carrier, p) for p in paragraphs]
    reach = PASSAGE_PARAGRAPHS
    near = [any(marked[max(0, i - reach) : i + reach + 1]) for i in range(len(marked))]
    written = re.compile(rf"\b[Tt]he {re.escape(epithet.written.split()[-1])}\b")
    away = [n for n, p in zip(near, paragraphs, strict=True) if not written.search(p)]
    return sum(away) / len(away) if away else 1.0


def names_any(carrier: Entity, text: str) -> bool:
    """Whether `text` writes a name of `carrier`."""
    return any(named(alias, text) for alias in carrier.aliases)


def named(alias: str, text: str) -> bool:
    """Whether `text` writes `alias` as whole words."""
    return re.search(rf"(?<![\w.]){re.escape(alias)}(?!\w)", text) is not None

"""A title the story says alone, of someone it never names: "the Marquis", written 63 times
in *A Tale of Two Cities* and speaking in 18 of them ("said the Marquis"), is a character of
their own, whom the cast misses (NER takes no title alone for a name). It is suggested as
one when no character carries the title by name (else it is that character's epithet:
`loci.toolsets.story.epithets`), and when it is written and speaks often enough to be
someone in the story, not a title said of whoever holds it ("the Judge", 10 times, never
speaking). An import's end takes such a title for a character's name itself, as written
(`sure_titles_alone`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from loci import sentences
from loci.toolsets.story import names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithets import (
    EVIDENCE_CHARS,
    Epithet,
    epithets,
    long_title,
    titles_of,
)
from loci.toolsets.story.mentions import SPEECH_VERBS
from loci.toolsets.story.models import CastSuggestion

#: The fewest times a title alone is written, and speaks, for it to be suggested.
TITLE_ALONE_LEAST = 20
TITLE_ALONE_SPEAKS = 5


def title_alone_suggestions(
    text: str, entities: Sequence[Entity], characters: Sequence[Entity]
) -> list[CastSuggestion]:
    """A character (named by the title: "Marquis") for each title said alone of someone the
    story never names (`titles_alone`)."""
    return [
        CastSuggestion(
            action="kind",
            name=alone.word,
            other="character",
            mentions=alone.epithet.count,
            reason=f"{alone.epithet.written!r} is written {alone.epithet.count} times and "
            f"speaks {len(alone.speaking)} times, a {alone.title} no character is named as",
            evidence=alone.speaking[0],
        )
        for alone in titles_alone(text, entities, characters)
    ]


def sure_titles_alone(
    text: str, entities: Sequence[Entity], characters: Sequence[Entity]
) -> list[str]:
    """The titles said alone that are someone of the story (`titles_alone`), as written
    ("the Marquis"): names the import's end takes for a character's."""
    return [alone.epithet.written for alone in titles_alone(text, entities, characters)]


@dataclass(frozen=True)
class TitleAlone:
    """A title said alone of someone the story never names: as written, the word, the title
    in its long form, and the sentences where it speaks."""

    epithet: Epithet
    word: str
    title: str
    speaking: list[str]


def titles_alone(
    text: str, entities: Sequence[Entity], characters: Sequence[Entity]
) -> list[TitleAlone]:
    """Each "the" and a title written with a capital TITLE_ALONE_LEAST times or more,
    speaking TITLE_ALONE_SPEAKS times or more, that no name of the cast holds and no
    character carries by name."""
    held = {names.key(alias) for entity in entities for alias in entity.aliases}
    found = []
    for epithet in epithets(text):
        first, *rest = epithet.written.split()
        # Written with a capital, as a name is ("the Marquis"; "the sergeant" is a calling).
        if epithet.called or first.lower() != "the" or not rest[-1][0].isupper():
            continue
        title, word = long_title(rest[-1].lower().rstrip(".")), rest[-1]
        if epithet.count < TITLE_ALONE_LEAST or names.key(word) in held:
            continue
        if any(title in titles_of(c) for c in characters):
            continue
        speaking = _speaking(text, word)
        if len(speaking) >= TITLE_ALONE_SPEAKS:
            found.append(TitleAlone(epithet, word, title, speaking))
    return found


def _speaking(text: str, title: str) -> list[str]:
    """The sentences where "the <title>" speaks ("said the Marquis", "the Marquis replied")."""
    said = rf"\b(?:{SPEECH_VERBS})\s+[Tt]he\s+{re.escape(title)}\b"
    says = rf"\b[Tt]he\s+{re.escape(title)},?\s+(?:{SPEECH_VERBS})\b"
    found = []
    for match in re.finditer(f"{said}|{says}", text):
        left, right = sentences.around(text, match.start(), match.end())
        found.append(sentences.clipped(text[left:right], EVIDENCE_CHARS, keep=(title,)))
    return found

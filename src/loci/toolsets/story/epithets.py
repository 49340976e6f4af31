"""Epithets: "the" and a title ("the Captain", "the Count"), or an honorific said in place of
a name ("her Ladyship", "his Lordship"), and the suggestion that one is the alias of the
character who carries the title."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from loci.toolsets.story import names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.models import CastSuggestion

#: The fewest times an epithet is written for it to be suggested.
EPITHET_LEAST = 3
#: A title carried by several characters goes to one carrying it this many times as often as
#: the next.
EPITHET_DOMINANCE = 4
#: The least share of an epithet's paragraphs that name its character too.
EPITHET_COMPANY = 0.1
#: "the" and a title, as a sailor may say it ("the Cap'n"), not a possessive ("the Captain's").
EPITHET = re.compile(r"\b[Tt]he ([A-Z][a-z]+(?:['\u2019]n)?)\b(?![ \t]+[A-Z])")
#: An honorific said in place of a name, after a possessive: "her Ladyship", "your Lordship".
HONORIFIC = re.compile(r"\b(?:[Hh]er|[Hh]is|[Yy]our)\s+(Ladyship|Lordship)\b")
#: Titles that are no epithet alone: "the Miss Lucases" names a family, "the Lord" God.
NOT_EPITHETS = frozenset({"mr", "mrs", "miss", "ms", "mister", "master", "lord", "lady"})
#: A title's short and long forms are one title ("Dr. Seward" is a doctor).
TITLE_FORMS = {
    "dr": "doctor",
    "prof": "professor",
    "capt": "captain",
    "cap'n": "captain",
    "cap\u2019n": "captain",
    "col": "colonel",
    "gen": "general",
    "lt": "lieutenant",
    "sgt": "sergeant",
    "rev": "reverend",
    "adm": "admiral",
    "maj": "major",
    "gov": "governor",
    "mme": "madame",
    "mlle": "mademoiselle",
    # The honorific of a title is that title: her Ladyship is a lady, his Lordship a lord.
    "ladyship": "lady",
    "lordship": "lord",
}


@dataclass(frozen=True)
class Epithet:
    """ "the <Title>" as the story writes it: how often, the first sentence holding it, and
    the paragraphs it stands in."""

    written: str
    count: int
    sentence: str
    paragraphs: tuple[str, ...] = ()


def epithets(text: str) -> list[Epithet]:
    """The epithets of `text`: "the" and a title ("the Captain", "the Count"), and an
    honorific said in place of a name ("her Ladyship", "your Ladyship": the alias is
    "Ladyship", which finds both), each written at least EPITHET_LEAST times."""
    matches: dict[str, list[re.Match[str]]] = {}
    for match in EPITHET.finditer(text):
        title = match.group(1)
        if names.is_title(title) and title.lower() not in NOT_EPITHETS:
            matches.setdefault(f"the {title}", []).append(match)
    for match in HONORIFIC.finditer(text):
        matches.setdefault(match.group(1), []).append(match)
    return [
        Epithet(
            written,
            len(found),
            _sentence(text, found[0].start()),
            tuple(_paragraph(text, m.start(), m.end()) for m in found),
        )
        for written, found in matches.items()
        if len(found) >= EPITHET_LEAST
    ]


def _paragraph(text: str, start: int, end: int) -> str:
    """The paragraph holding text[start:end]."""
    left = text.rfind("\n\n", 0, start) + 1
    right = text.find("\n\n", end)
    return text[left : right if right >= 0 else len(text)]


def epithet_suggestions(
    found: Sequence[Epithet], characters: Sequence[Entity]
) -> list[CastSuggestion]:
    """An alias for each epithet whose title one character carries ("the Captain" is
    Captain Hawkes), or carries far more often than anyone else."""
    held = {names.key(alias) for entity in characters for alias in entity.aliases}
    suggested = []
    for epithet in found:
        if names.key(epithet.written) in held:
            continue
        title = _title(names.key(epithet.written).split()[-1])
        carriers = sorted(
            (e for e in characters if title in _titles_of(e)), key=lambda e: -e.mentions
        )
        if not carriers:
            continue
        if len(carriers) > 1 and carriers[0].mentions < EPITHET_DOMINANCE * carriers[1].mentions:
            continue
        carrier = carriers[0]
        # An epithet keeps its character's company: "the Captain" stands where Captain
        # Hawkes is named too, "the King" of a story told of many kings does not.
        beside = [p for p in epithet.paragraphs if any(named(a, p) for a in carrier.aliases)]
        if len(beside) < EPITHET_COMPANY * len(epithet.paragraphs):
            continue
        suggested.append(
            CastSuggestion(
                action="alias",
                name=carrier.name,
                other=epithet.written,
                mentions=epithet.count,
                reason=f"{epithet.written!r} is written {epithet.count} times, and "
                f"{carrier.name!r} is the story's "
                + (
                    f"only {title} by name"
                    if len(carriers) == 1
                    else f"{title} named far more often than any other"
                ),
                evidence=_sentence_with(beside, epithet.written, carrier) or epithet.sentence,
            )
        )
    return suggested


def named(alias: str, text: str) -> bool:
    """Whether `text` writes `alias` as whole words."""
    return re.search(rf"(?<![\w.]){re.escape(alias)}(?!\w)", text) is not None


def _sentence_with(paragraphs: Sequence[str], epithet: str, carrier: Entity) -> str:
    """A sentence of `paragraphs` writing the epithet and a name of its carrier, if any."""
    from loci import sentences

    for paragraph in paragraphs:
        for left, right in sentences.spans(paragraph):
            said = paragraph[left:right]
            if epithet.lower() in said.lower() and any(named(a, said) for a in carrier.aliases):
                return " ".join(said.split())[:280]
    return ""


def _title(word: str) -> str:
    return TITLE_FORMS.get(word, word)


def _titles_of(entity: Entity) -> set[str]:
    """The titles the entity's names carry, each in its long form: before the name ("Captain
    Hawkes"), or as the last word of a name that has none before it ("Tin Woodman": "the
    Woodman" is his, as "the Captain" is Captain Hawkes')."""
    found = set()
    for alias in entity.aliases:
        parsed = names.parse(alias)
        found |= {_title(t) for t in parsed.titles}
        words = alias.split()
        if not parsed.titles and len(words) > 1 and names.is_title(words[-1]):
            found.add(_title(words[-1].rstrip(".").lower()))
    return found


def _sentence(text: str, at: int) -> str:
    """The sentence around `at`, on one line."""
    from loci import sentences

    left, right = sentences.around(text, at, at + 1)
    return " ".join(text[left:right].split())[:280]

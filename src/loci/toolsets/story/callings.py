"""Callings: what a story calls someone by their work ("the beadle", "the landlord"), known
for one character where the story says it beside their name, in apposition: "Mr. Bumble, the
beadle, ...", "Mr. Campbell, the minister of Essendean, ..." or "(And) the boatswain, Job
Anderson, ...", or names them by it: "such a linen-weaver, named Silas Marner" (a weaver, whom
the story goes on to call "the weaver"). A reader told once that Mr. Snell is the landlord
takes the 27 "the landlord"s of the inn's talk for his. A relation ("the daughter of Mr.
Smith") is no calling.

A calling said beside two characters' names is no one's ("the master" of two houses), and a
name in a list ("Captain Smollett, the squire, and Dr. Livesey"; "Sid, Mary, the minister,
the editor") is no apposition: a calling closed by ", and" or ", the", or after a name that
follows another name and a comma, is left out. The calling, written alone, must keep its
character's company as an epithet must (`epithet_company.keeps_company`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from loci.toolsets.story import names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithet_cast import EPITHET_SURE_LEAST
from loci.toolsets.story.epithet_company import keeps_company, names_any
from loci.toolsets.story.epithets import (
    EPITHET_DOMINANCE,
    EPITHET_LEAST,
    Epithet,
    sentence_with,
    written_at,
)
from loci.toolsets.story.mentions import SPEECH_VERBS
from loci.toolsets.story.models import CastSuggestion

#: A calling after a name: ", the beadle" (or without the comma: "Barrymore the butler, who"),
#: closed by punctuation but not by ", and" or by another "the" of a list, or by where ("Mr.
#: Campbell, the minister of Essendean,"); a word before it says whose too ("Stubb, the second
#: mate": "the mate" is no Radney's alone).
AFTER_NAME = re.compile(
    r",?\s+the\s+(?:[a-z]+\s+)?([a-z][a-z-]+)(?:\s+of\s+[A-Z][\w'\u2019-]*)?"
    r"(?=[;:.!?)\u2014]|,(?!\s+(?:and|the)\b))"
)
#: A calling opening a sentence before a name: "The boatswain, Job Anderson, was ...", "And
#: the coxswain, Israel Hands, was ..." (not a call: "Open the door, Amy!").
BEFORE_NAME = re.compile(
    r"(?:^|(?<=[.!?]\s)|(?<=\n))(?:The|And\s+the)\s+(?:[a-z]+\s+)?([a-z][a-z-]+),\s+(?=[A-Z])"
)
#: A calling that names someone: "a linen-weaver, named Silas Marner", "a local steward named
#: Erothei", "a colonist of the name of Provis" (the last word of a compound is the calling).
NAMING_CALLING = re.compile(
    r"\b(?:[Aa]n?|[Oo]ne)\s+(?:[a-z]+\s+){0,2}(?:[a-z]+-)?([a-z]+),?\s+"
    r"(?:named|called|of\s+the\s+name\s+of|by\s+name)\s+(?=[A-Z])"
)
#: The capitalised words just before a calling (a name ends them), and just after one that
#: opens a sentence, up to the comma closing the apposition (a name opens them).
NAME_BEFORE = re.compile(r"(?:[A-Z][\w'\u2019.-]*\s+){0,3}[A-Z][\w'\u2019-]*$")
#: A name after another and a comma, the list's item before it ("Aunt Polly, Sid, Mary, the
#: minister, the editor": no apposition).
LISTED_AFTER = re.compile(r"[A-Z][\w'\u2019-]*,\s+$")
NAME_AFTER = re.compile(r"[A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*){0,3}(?=,)")
NAMED_AFTER = re.compile(r"[A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*){0,3}")
#: Words after "the" that are no calling, said in apposition to anyone ("John, the second").
NOT_CALLINGS = frozenset(
    {
        "first", "second", "third", "fourth", "fifth", "last", "next", "other", "others",
        "same", "one", "two", "three", "rest", "former", "latter", "whole", "best", "worst",
        "world", "day", "night", "morning", "evening", "time", "way", "end",
        # kin, no calling: "Harriet, the daughter of Mr. Smith"
        "son", "daughter", "brother", "sister", "father", "mother", "wife", "husband",
        "widow", "heir", "nephew", "niece", "cousin", "uncle", "aunt", "child",
        # anyone, no calling: "a little girl called Jane Eyre", "a man named Monks"
        "man", "woman", "boy", "girl", "gentleman", "lady", "person", "fellow", "youth",
        "creature", "family", "place", "name",
    }
)  # fmt: skip


@dataclass
class Apposed:
    """A character a calling is said beside: the words that say so, and how many times."""

    carrier: Entity
    said: str
    times: int = 0


@dataclass(frozen=True)
class Calling:
    """A calling written alone often enough, that speaks, said beside its character's name
    (`carrier`, of `carriers` it is said beside) and keeping their company (`beside`: the
    passages of it that name them)."""

    written: str
    epithet: Epithet
    carrier: Apposed
    carriers: int
    beside: list[str]


def calling_suggestions(text: str, characters: Sequence[Entity]) -> list[CastSuggestion]:
    """An alias for each calling ("the beadle") the story says beside a character's name
    (`_carrier`), written alone EPITHET_LEAST times at least, in that character's company."""
    return [
        CastSuggestion(
            action="alias",
            name=c.carrier.carrier.name,
            other=c.written,
            mentions=c.epithet.count,
            reason=f"{c.written!r} is written {c.epithet.count} times, and the story calls "
            f"{c.carrier.carrier.name!r} so by name: {c.carrier.said!r}",
            evidence=sentence_with(c.beside, c.written, c.carrier.carrier) or c.epithet.sentence,
        )
        for c in callings(text, characters)
    ]


def sure_callings(text: str, characters: Sequence[Entity]) -> list[str]:
    """The callings an import takes for names of the story, which the cast joins to the one
    character they are said beside (`epithet_cast.calling_hosts`): said beside one character
    only and written alone EPITHET_SURE_LEAST times or more, as the cast reads it beside the
    name (no word between: "Mr. Sowerberry, the parochial undertaker" stays a suggestion)."""
    return [
        c.written
        for c in callings(text, characters)
        if c.carriers == 1 and c.epithet.count >= EPITHET_SURE_LEAST and _plainly(c)
    ]


def _plainly(calling: Calling) -> bool:
    """Whether the apposition says the calling as written alone, right beside the name."""
    said, written = calling.carrier.said.lower(), calling.written
    return (
        said.startswith(f"{written},")
        or said.endswith(f" {written}")  # ", the beadle" or "Barrymore the butler"
        or (f", {written} of " in said)
    )


def callings(text: str, characters: Sequence[Entity]) -> list[Calling]:
    """The callings `text` says beside a character's name that no name of theirs holds."""
    alias_of = {alias: e for e in characters for alias in e.aliases}
    held = {names.key(alias) for alias in alias_of}
    paragraphs = text.split("\n\n")
    found = []
    for word, apposed in _apposed(text, alias_of).items():
        written = f"the {word}"
        spans = [m.span() for m in re.finditer(rf"\b[Tt]he\s+{word}\b(?!-)", text)]
        if names.key(written) in held or len(spans) < EPITHET_LEAST or not _speaks(word, text):
            continue
        epithet = written_at(text, written, spans)
        carrier = _carrier(epithet, apposed)
        beside = keeps_company(epithet, carrier.carrier, paragraphs) if carrier else []
        if carrier is not None and beside:
            found.append(Calling(written, epithet, carrier, len(apposed), beside))
    return found


def _apposed(text: str, alias_of: Mapping[str, Entity]) -> dict[str, list[Apposed]]:
    """Each calling the story says beside a character's name, with those characters, the
    words that say so ("Mr. Bumble, the beadle"), and how often."""
    found: dict[str, dict[int, Apposed]] = {}
    readings = (
        (AFTER_NAME, _named_before),
        (BEFORE_NAME, _named_after),
        (NAMING_CALLING, _named_by),
    )
    for pattern, read in readings:
        for match in pattern.finditer(text):
            named = read(text, match, alias_of)
            if named is not None:
                carriers = found.setdefault(match.group(1), {})
                carriers.setdefault(named[0].id, Apposed(*named)).times += 1
    return {
        word: list(carriers.values())
        for word, carriers in found.items()
        if word not in NOT_CALLINGS
    }


def _named_before(
    text: str, calling: re.Match[str], alias_of: Mapping[str, Entity]
) -> tuple[Entity, str] | None:
    """The character named just before `calling` ("Mr. Bumble, the beadle"), and the words."""
    before = NAME_BEFORE.search(text, max(0, calling.start() - 80), calling.start())
    if before is None or LISTED_AFTER.search(text, max(0, before.start() - 40), before.start()):
        return None
    named = _longest_alias(before.group(), alias_of, last=True)
    said = " ".join(calling.group().split())
    return None if named is None else (named[0], named[1] + ("" if said[0] == "," else " ") + said)


def _named_after(
    text: str, calling: re.Match[str], alias_of: Mapping[str, Entity]
) -> tuple[Entity, str] | None:
    """The character named just after `calling` ("The boatswain, Job Anderson,"), and the
    words."""
    after = NAME_AFTER.match(text, calling.end())
    named = _longest_alias(after.group() if after else "", alias_of, last=False)
    said = calling.group()[calling.group().lower().index("the") :]  # not "And"
    return None if named is None else (named[0], " ".join(said.split()) + " " + named[1])


def _named_by(
    text: str, calling: re.Match[str], alias_of: Mapping[str, Entity]
) -> tuple[Entity, str] | None:
    """The character a calling names ("a linen-weaver, named Silas Marner"), and the words."""
    after = NAMED_AFTER.match(text, calling.end())
    named = _longest_alias(after.group() if after else "", alias_of, last=False)
    return None if named is None else (named[0], " ".join(calling.group().split()) + " " + named[1])


def _carrier(epithet: Epithet, apposed: Sequence[Apposed]) -> Apposed | None:
    """The one a calling is of those it is said beside: the only one, or the one it is said
    beside more often than any other and named near it EPITHET_DOMINANCE times as often
    ("Mr. Snell, the landlord" twice, of the inn in whose talk "the landlord" is written;
    "Mr. Cass, the landlord" once, of a cottage). A calling said as often beside two ("the
    master" of two houses) is no one's."""
    near = {a.carrier.id: sum(names_any(a.carrier, p) for p in epithet.passages) for a in apposed}
    ranked = sorted(apposed, key=lambda a: (-a.times, -near[a.carrier.id]))
    if len(ranked) == 1:
        return ranked[0]
    first, second = ranked[0], ranked[1]
    if first.times == second.times:
        return None
    if near[first.carrier.id] < EPITHET_DOMINANCE * max(near[c.carrier.id] for c in ranked[1:]):
        return None
    return first


def _longest_alias(
    words: str, alias_of: Mapping[str, Entity], last: bool
) -> tuple[Entity, str] | None:
    """The character whose alias is the longest run of `words` ending them (`last`) or
    opening them, and that alias."""
    split = " ".join(words.split()).split(" ")
    for size in range(len(split), 0, -1):
        run = " ".join(split[-size:] if last else split[:size])
        if run in alias_of:
            return alias_of[run], run
    return None


def _speaks(word: str, text: str) -> bool:
    """Whether "the <word>" speaks somewhere, as someone does ("said the beadle", "the
    landlord replied", "the rector, who"): a door, a case or a question a name is called
    beside ("Open the door, Amy!") never does."""
    return (
        re.search(rf"\b(?:{SPEECH_VERBS})\s+the\s+{word}\b", text) is not None
        or re.search(rf"\bthe\s+{word},?\s+(?:{SPEECH_VERBS}|who)\b", text) is not None
    )

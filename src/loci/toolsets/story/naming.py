"""Names the text gives as names: "It's named Captain", "he's called Nut", "the pony whose
name was Jump", "a lad named Cartwright", "she had called them Salt and Pepper"; and a name a
title says is someone's: "Dr Doherty", "Mrs. Kerr".

A reader takes what the text says is someone's name for a name, and the one it names for
someone: a creature named with a common word (two squirrels, "Nut" and "Shell"), which the
cast would otherwise read as the word, or a minor character named once so and then by name
alone. Not what the text names as a thing: "a game called Yes", "the place was named Green
Gables", "a ship called the Pequod" (the name follows "the"), "a day called Sunday", "I
called it Violet Vale" (what is called "it" is a thing), "there are birds called Wendies" (a
kind of thing).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from loci.toolsets.story import names
from loci.toolsets.story.address import CALENDAR, NAME
from loci.toolsets.story.place_words import PLACE_HEADS

if TYPE_CHECKING:
    from loci.toolsets.story.mentions import Mention

#: The words a name is given with, the two words before them (what is named) and the name:
#: "one's called Shell", "they called him Long John", "whose name was Jump", "my name's Ben".
NAMING = re.compile(
    r"(?P<before>(?:\b[\w\u2019']+\s+){0,2})"
    r"(?:(?:named|called|christened|nicknamed)(?:\s+(?P<pronoun>him|her|them|me|you|us))?"
    r"|name\s+(?:is|was|turned\s+out\s+to\s+be|proved\s+to\s+be)|name[\u2019']s)"
    rf"[ \t]*\n?[ \t]*(?P<name>{NAME})"
    rf"(?P<more>(?:,[ \t]*{NAME})*,?[ \t]+and[ \t]+{NAME})?"
)
#: A title of address and a capitalised word after it, with the title's full stop or, as
#: British print sets it, without: "Dr Doherty", where NER may see nothing; or a peer's
#: ("Lord Longtown's, near Hereford", which NER took for no one); or an initial with its
#: stop, no name after it ("Miss M. is absolutely engaged": a letter's discretion).
TITLED = re.compile(
    r"\b(?:(?:Mr|Mrs|Ms|Mx|Dr|Miss)\.?|Lord|Lady|Sir)[ \t]+"
    r"(?P<name>[A-Z][\w\u2019'-]+|[A-Z]\.(?![ \t]*[A-Z]))"
)
#: A capitalised word after a name (on the next line, maybe): the name goes on.
NEXT_CAPITALISED = re.compile(r"\s+[A-Z]")
#: One name of a list of names given at once: "she had called them Salt and Pepper".
ONE_NAME = re.compile(NAME)
#: Things a text names, which are no one: "a game called Yes", "a ship named Rose".
THINGS = PLACE_HEADS | frozenset(
    {"game", "place", "ship", "boat", "vessel", "book", "song", "story", "tale", "poem", "play"}
    | {"business", "firm", "company", "paper", "newspaper", "magazine", "country", "land"}
    | {"farm", "estate", "school", "church", "hill", "day", "month", "thing", "flower", "tree"}
)


def given(text: str) -> list[tuple[int, int]]:
    """The spans of `text` where a name is given as someone's name."""
    spans = []
    for match in NAMING.finditer(text):
        words = [word.lower() for word in match.group("before").split()]
        named = match.group("name")
        if {w.rstrip("s") for w in words} & {t.rstrip("s") for t in THINGS}:
            continue
        if named.lower() in CALENDAR or (_plural(named) and any(_plural(w) for w in words)):
            continue  # "there are birds called Wendies": a kind's name, no one's
        if names.is_title(named) and not _title_as_name(text, match):
            continue
        spans.append(match.span("name"))
        if match.group("more"):
            more = match.start("more")
            listed = ONE_NAME.finditer(match.group("more"))
            spans += [(more + one.start(), more + one.end()) for one in listed]
    return spans


def _title_as_name(text: str, match: re.Match[str]) -> bool:
    """Whether a title word the text names something with is its name ("It's named
    Captain", a fox): not a title said of a person ("they called him Warden", his epithet,
    which `loci.toolsets.story.called` reads), nor the first word of a longer name ("my name
    was Prince / Charming", across a line break)."""
    return match.group("pronoun") is None and not NEXT_CAPITALISED.match(text, match.end("name"))


def _plural(word: str) -> bool:
    return word.endswith("s") and not word.endswith(("ss", "us", "is", "'s", "\u2019s"))


def with_naming(
    text: str,
    found: list[Mention],
    cleaned: Callable[[str, int, int], Mention | None],
) -> list[Mention]:
    """`found`, each mention of a name given as a name marked `named` (trimmed by `cleaned`
    as NER's are); a name NER missed there is added, for the text says it is one."""
    for start, end in given(text):
        mention = cleaned(text, start, end)
        if mention is None:
            continue
        at = next((i for i, m in enumerate(found) if m.start == mention.start), None)
        if at is None:
            found = [m for m in found if m.end <= mention.start or mention.end <= m.start]
            found.append(replace(mention, named=True))
        else:
            found[at] = replace(found[at], named=True)
    return found


def with_titled(
    text: str,
    found: list[Mention],
    cleaned: Callable[[str, int, int], Mention | None],
) -> list[Mention]:
    """`found`, with each titled name ("Dr Doherty") that no mention found covers: a reader
    takes a title before a capitalised word for someone's name, where NER may not."""
    added = []
    for match in TITLED.finditer(text):
        if any(m.start < match.end() and match.start() < m.end for m in found):
            continue
        name = match.group("name")
        if len(name.rstrip(".")) > 1 and names.is_title(name):
            continue  # "Lord St. Ives" is cut at no title; "Miss M." is an initial's
        mention = cleaned(text, match.start(), match.end())
        if mention is not None:
            added.append(replace(mention, label="person"))
    return [*found, *added]

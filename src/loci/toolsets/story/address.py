"""Names called out in dialogue, or at the head of a letter: whom a speaker (a writer)
addresses is someone.

A reader takes a name a speaker calls out for a person's, whatever else the text says of it:
'"Home, little Fan?" returned the boy', '"What is this, Perkins?"', '"Belle," said the
husband'. A minor character may be named only so, two or three times, where NER calls the
name a thing's. Two places in a line of dialogue say a name is called:

- after a comma, ending a spoken phrase ("Come, Watson," / "Good night, dear Jo!"), where
  only a name, a title or a word of address stands, the quotation closing after it or the
  speaker going on ("Two life signs, Commander. One adult");
- opening the line, before a comma ('"Belle," said'), where interjections stand as often
  ('"Nonsense," said'; '"Sunday! You went to-day"'): there only a given name or a titled name
  counts.

A letter's salutation on a line of its own ("My dearest Meg,") addresses its reader too.

An oath, a day or a greeting is called out as a name is ("Oh, my God!", "Good-bye, and a Merry
Christmas!"), and is no one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from loci import sentences
from loci.toolsets.story import census, kin_words, names

if TYPE_CHECKING:
    from loci.toolsets.story.mentions import Mention

#: A name of one or two capitalised words, with a title before it ("Mr. Holmes", "Dr Singh").
NAME = r"(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?[A-Z][\w\u2019'-]+(?:[ \t]+[A-Z][\w\u2019'-]+)?"
#: Words a speaker puts before the name they call ("little Fan", "my dear Jo", "friend John").
_FOND = r"(?:(?:my|our)\s+)?(?:(?:dear|dearest|little|poor|good|old|young|friend)\s+)?"
#: A name called at the end of a spoken phrase, the quotation closing after it.
CALLED_LAST = re.compile(rf",\s+{_FOND}({NAME})\s*[,.!?]+\s*[\"\u201d\u2019]")
#: A name called at the end of a spoken sentence the speaker goes on after ("Two life signs,
#: Commander. One adult"): a call only inside a quotation (see `in_quotation`).
CALLED_MID = re.compile(rf",\s+{_FOND}({NAME})[.!?]+\s+(?=[\"\u201c\u2018]?[A-Z])")
#: A name called inside a spoken sentence, between commas after a word in lower case ("I say,
#: Quohog, or whatever your name is"), or with a cry ("spring! Quohog! spring"); a list writes
#: names between commas too ("mother, Meg, and Jo"), so the cast's cues do not take it.
CALLED_WITHIN = re.compile(
    rf"(?:\b[a-z][a-z'\u2019]*,\s+{_FOND}({NAME}),\s+(?!(?:and|nor)\b|[A-Z])"
    rf"|(?:[\"\u201c]|[!?]\s)\s*({NAME})!\s+[a-z])"
)
#: A name called as a line of dialogue opens.
CALLED_FIRST = re.compile(rf"(?:^|[\s(])[\"\u201c\u2018]({NAME}),[\"\u201d\u2019]?\s")
#: A letter's salutation on a line of its own: "My dearest Meg,", "Dear Mr. Ashgrove,".
SALUTATION = re.compile(
    rf"^[ \t]*[\"\u201c]?(?:[Mm]y[ \t]+)?(?:[Dd]ear|[Dd]earest)[ \t]+({NAME})[,:][ \t]*$",
    re.MULTILINE,
)
#: Oaths, called out as names are ("Oh, my God!", "Good heavens, Jove!"), and no one in the
#: story.
OATHS = frozenset({"god", "heaven", "heavens", "christ", "jesus", "jove", "gad", "goodness"})
#: Months, days and feasts, which end a spoken phrase as names do ("Come back, November!").
MONTHS = frozenset(
    (
        *("january", "february", "march", "april", "may", "june", "july", "august"),
        *("september", "october", "november", "december"),
    )
)
CALENDAR = MONTHS | frozenset(
    (
        *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        *("christmas", "easter", "whitsun", "whitsuntide", "michaelmas", "martinmas"),
        *("candlemas", "lammas", "midsummer", "hallowmas", "shrovetide", "lent"),
    )
)
#: Days and feasts: never a family's name, as a month may be ("March").
DAYS = CALENDAR - MONTHS
#: Words of slang a speaker calls anyone by, capitalised ("Listen, Mac", "Says who, Mac?";
#: "Mum", a Dickens tradesman's ma'am): no one's name unless the narration makes them one.
ANYONES = frozenset({"mac", "bub", "buster", "toots", "mum"})
#: First words of greetings, which end a spoken phrase as names do ("Good-bye, aunt, and a
#: Merry Christmas!").
GREETINGS = frozenset({"merry", "happy", "good", "bon"})


def called(
    text: str, families: Collection[str] = (), *, within: bool = False
) -> list[tuple[int, int]]:
    """The spans of `text` where a speaker calls someone by name (`families`: the family names
    the story writes after a title, which open a line of dialogue as a call: '"Moss," he
    said', of Mrs. Moss); `within`, calls inside a spoken sentence too (`CALLED_WITHIN`)."""
    spans = [match.span(1) for match in CALLED_LAST.finditer(text)]
    if within:
        found = [m.span(m.lastindex or 1) for m in CALLED_WITHIN.finditer(text)]
        spans += [(a, b) for a, b in found if in_quotation(text[text.rfind("\n\n", 0, a) + 1 : a])]
    spans += [
        m.span(1)
        for m in CALLED_MID.finditer(text)
        if in_quotation(text[text.rfind("\n\n", 0, m.start()) + 1 : m.start()])
    ]
    spans += [match.span(1) for match in SALUTATION.finditer(text)]
    for match in CALLED_FIRST.finditer(text):
        first = match.group(1).split()[0]
        if (
            names.is_title(first)
            or _a_given_name(first)
            or match.group(1).lower() in families
            or kin_words.parent_word_sex(match.group(1))
        ):
            spans.append(match.span(1))
    # "why, Dr. Watson is the very man": the full stop of "Dr." ends no call.
    return [
        (a, b)
        for a, b in spans
        if not _no_one(text[a:b])
        and not (sentences.is_abbreviation(text[a:b]) and text[b : b + 1] == ".")
    ]


def in_quotation(before: str) -> bool:
    """Whether what follows `before` (its paragraph so far) stands inside a quotation: after
    an odd number of straight double quotes, or more opening curly quotes than closing ones."""
    return before.count('"') % 2 == 1 or before.count("\u201c") > before.count("\u201d")


def _no_one(name: str) -> bool:
    """Whether a name called out is an oath, a day, a month or a greeting."""
    lowered = name.lower()
    return lowered in OATHS or lowered in CALENDAR or lowered.split()[0] in GREETINGS


def with_address(
    text: str,
    found: list[Mention],
    cleaned: Callable[[str, int, int], Mention | None],
    known: Iterable[str] = (),
) -> list[Mention]:
    """`found`, each mention of a name called out in dialogue marked `addressed` (trimmed by
    `cleaned` as the mention was). Only the family name of a titled name `known`, the given
    name of an untitled one, or a child's word for a parent, is added where no mention is
    ('"Moss," he said', of Mrs. Moss; '"Nobody, Harlan,"', of Harlan Voss):
    an interjection ends a phrase as a name does ('"Ha, ha!"', '"Right, No."'), and only NER
    or the names known say what is a name."""
    families = titled_families(known)
    given = given_names(known)
    for start, end in called(text, families):
        mention = cleaned(text, start, end)
        if mention is None:
            continue
        at = next((i for i, m in enumerate(found) if m.start == mention.start), None)
        if at is not None:
            found[at] = replace(found[at], addressed=True)
        elif mention.surface.lower() in families | given or kin_words.parent_word_sex(
            mention.surface
        ):
            # '"Moss," he said', of Mrs. Moss; '"Nobody, Harlan,"', of Harlan Voss; '"…, Mama,"
            # said Kitty': a child's word for a parent, which NER seldom takes for a name.
            found = [m for m in found if m.end <= mention.start or mention.end <= m.start]
            found.append(replace(mention, addressed=True))
    return found


def given_names(known: Iterable[str]) -> frozenset[str]:
    """The first words (lower case) of the untitled full names in `known`: "harlan" of "Harlan
    Voss", a given name NER may never take alone."""
    found: set[str] = set()
    for name in known:
        words = name.split()
        if len(words) > 1 and words[0][:1].isupper() and not names.is_title(words[0]):
            found.add(words[0].lower())
    return frozenset(found)


def titled_families(known: Iterable[str]) -> frozenset[str]:
    """The family names (lower case) written after a title in `known`: "moss" of "Mrs. Moss"."""
    found: set[str] = set()
    for name in known:
        parsed = names.parse(name)
        if parsed.surname_like:
            found |= parsed.bare
    return frozenset(found)


def _a_given_name(word: str) -> bool:
    """Whether `word` is a given name and no word a line of dialogue opens with ("So", "See",
    "Will" are in the census lists)."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return census.is_given_name(word) and word.lower() not in STOP_WORDS

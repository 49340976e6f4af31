"""Common words in and around names: how the story writes a word (a common word is one it
writes in lower case far more often than it capitalises it inside a sentence), a name's words
that are no titles, a name without the common words around it ("Poor Beth" is Beth), a thing
personified by a title ("King Laugh"), and a cry NER takes for a name ("Yo-ho-ho")."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from loci.toolsets.story import census, names
from loci.toolsets.story.reading import WordCase

#: A word written in lower case this many times as often as capitalised inside a sentence is
#: a common word.
COMMON_RATIO = 3
#: Titles a speaker puts before a common word to personify a thing ("Dame Nature").
PERSONIFYING = frozenset({"king", "queen", "dame", "lady", "lord", "mother", "father"})


def word_key(word: str) -> str:
    """How a word is counted: lower case, straight apostrophes."""
    return word.lower().replace("\u2019", "'")


def is_common_word(word: str, cases: Mapping[str, WordCase]) -> bool:
    """Whether the story uses `word` as a common word rather than a name (a word it has no
    count of, from a correction or an older store, is taken for a name). A given name the
    story never writes in lower case is a name wherever it stands ("Susan Harper, did you do
    this?" opens the only sentence that names her)."""
    case = cases.get(word_key(word.strip(".,")))
    if case is None:
        return False
    if case.inside == 0:
        return case.lower > 0 or not census.is_given_name(word.strip(".,"))
    return case.lower > COMMON_RATIO * case.inside


def personified(written: str, cases: Mapping[str, WordCase]) -> bool:
    """Whether `written` is a common word after a title of state or of a family, the way a
    speaker personifies a thing ("King Laugh", "Dame Nature", "Father Time"): no one, unless
    the census knows the word for a name ("Lady Bird", "Father Brown")."""
    words = [w.strip(".,'\u2019") for w in written.split()]
    if len(words) != 2 or words[0].lower() not in PERSONIFYING:
        return False
    word = words[1]
    common = is_common_word(word, cases) and not census.is_given_name(word)
    return common and not census.is_common_surname(word)


def name_words(written: str) -> list[str]:
    """The words of a name that are not titles."""
    words = [w.strip(".,'\u2019") for w in written.split()]
    while len(words) > 1 and names.is_title(words[0]):
        words.pop(0)
    return [w for w in words if w]


def reduced(written: str, count: int, cases: Mapping[str, WordCase], person: bool = True) -> str:
    """`written` without the common words around its name ("Poor Beth", "Unlucky Jo", "Stubb
    Kills" are Beth, Jo and Stubb) or an interjection before it ("O Laurie"); titles stay
    ("Aunt March"). Of a name not a `person`'s, the words after stay: "Pickwick Hall" is a
    hall, not Pickwick."""
    words = written.split()
    # "Stubb Kills" (a chapter's title) is Stubb; "Mr. Arrow" stays whole, whatever "arrow" is,
    # and so does a name made with "of": its domain is no common word ("Queen of the Mice").
    made_with_of = "of" in words[1:-1]
    while (
        person
        and not made_with_of
        and _untitled(words[:-1])
        and _common_here(words[-1], count, cases)
        and not _family_name_after_given(words, cases)
    ):
        words.pop()
    start = 0
    while start < len(words) - 1 and not names.is_title(words[start]):
        if len(words[start]) == 1:  # "O Laurie": an initial is written with a full stop
            start += 1
            continue
        if re.fullmatch(r"[A-Z]\.", words[start]):
            break  # an initial, whatever "&c." makes of its letter: "C. Vernon"
        if not _common_here(words[start], count, cases):
            break
        start += 1
    return " ".join(words[start:])


def _family_name_after_given(words: Sequence[str], cases: Mapping[str, WordCase]) -> bool:
    """Whether the last of `words` is a family name many carry, after a given name the story
    writes as a name: "Emma White" and "Tom Brown" are full names, whatever "white" and
    "brown" are elsewhere ("Stubb Kills", a chapter's title, is Stubb)."""
    if len(words) < 2:
        return False
    given = words[-2].strip(".,")
    return (
        census.is_common_surname(words[-1].strip(".,"))
        and census.is_given_name(given)
        and not is_common_word(given, cases)
    )


def _untitled(words: Sequence[str]) -> bool:
    """Whether `words` hold a word that is no title."""
    return any(not names.is_title(word) for word in words)


def _common_here(word: str, count: int, cases: Mapping[str, WordCase]) -> bool:
    """Whether `word`, in a name met `count` times, is a common word: one the story writes in
    lower case at least as often as capitalised inside a sentence, and capitalises only in
    this name (or at a sentence's start), or a common word anyway. "Poor Beth" is Beth, but
    "Injun Joe" (two "injun" to 52 "Injun") is no Joe, and a given name is a common word only
    if the story uses it as one ("Sally Rogers", though once "sally forth")."""
    if census.is_given_name(word.strip(".,")):
        return is_common_word(word, cases)
    case = cases.get(word_key(word.strip(".,")), WordCase())
    if word_key(word.strip(".,")) in cases and case.lower == 0:
        return False  # never written in lower case: a name's word ("Priya Nair"), no common one
    lower = bool(case.lower) and case.lower >= case.inside
    return (lower and case.inside <= count) or is_common_word(word, cases)


def a_cry(written: str) -> bool:
    """Whether `written` is a cry of short syllables strung with hyphens ("Yo-ho-ho", "Ha-ha",
    "Tra-la-la"), which NER takes for a name."""
    parts = written.lower().split("-")
    short = len(parts) > 1 and all(0 < len(part) <= 3 for part in parts)
    return short and (len(parts) > 2 or parts[0] == parts[1])

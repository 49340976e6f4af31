"""What a piece of story says beyond its names: how it writes each word, and which names it
puts together.

- Word case: a name is capitalised wherever it stands; a common word only where a sentence
  starts ("Hush!", "Time passed"). Counting, for every word, its lower-case uses and its
  capitalised uses inside a sentence tells the two apart over the whole story.
- Pairs: two names in one sentence are usually two people ("Mr. Laurence looked at Laurie"),
  unless one restates the other ("Teddy, or Mr. Theodore Laurence", "Tobias, whom the whole
  harbour called Toby"; a calling an import took for a name, "Mr. Bumble, the beadle"), is
  an epithet set after the other ("Oz, the Great Wizard"), stands after "a" ("Oz is a good
  Wizard") or in a chapter's title; two names in one paragraph appear together (the graph's
  relation).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from loci import sentences
from loci.toolsets.story import given_names, names
from loci.toolsets.story.address import in_quotation
from loci.toolsets.story.gutenberg import in_heading
from loci.toolsets.story.mentions import CALLING, Mention

WORD = re.compile(r"[^\W\d_][\w'\u2019-]*", re.UNICODE)
#: What stands before a word that starts a sentence or a line (besides white space).
OPENERS = "\"'\u201c\u2018([_*\u2014-"
#: Words between two names that make the second another name for the first.
NAMING = re.compile(
    r"^(?:,?\s*(?:alias|otherwise called|known as|better known as)"
    # Without a comma, "called" is what one does to another: "Old Tom called Lila 'Bug'".
    r"|,\s*(?:called|named|nicknamed|christened)"
    r"|,\s*whom\s[^,;.!?]{0,48}?\b(?:called|call|calls|named|name|names|knew as|know as)"
    r"|,?\s*whose (?:real |proper |true |christian )?name (?:was|is))\s*$",
    re.I,
)
#: Words between two names that may restate the first ("Teddy, or Mr. Theodore Laurence"),
#: or offer another person ("Kitty, or Mary"): a restatement only between names that share a
#: name.
RESTATING = re.compile(r"^(?:,\s*or|\s*\()\s*$", re.I)
#: A comma and "the" between two names: the second may be an epithet of the first.
EPITHET_GAP = re.compile(r",[ \t]*\n?[ \t]*the[ \t]+\n?[ \t]*", re.I)
#: After a name, what says a list of names goes on: a comma, "and" or "or", then a name.
LIST_GOES_ON = re.compile(r",?\s+(?:and|or)\s+(?:the\s+)?[A-Z]|,\s*(?:the\s+)?[A-Z]")
#: The comma setting a calling taken for a name ("the beadle", an import's reading of
#: `callings.sure_callings`) beside a name in apposition, or no comma ("Barrymore the butler").
APPOSING = re.compile(r",?[ \t]*\n?[ \t]*")
#: "a" or "an", and up to three words in lower case, right before a name.
A_BEFORE = re.compile(r"\b[Aa]n?\s+(?P<between>(?:[a-z][\w'\u2019-]*\s+){0,3})$")
#: How far before a name (in characters) that "a" is looked for.
A_REACH = 60
PAIR_KINDS = ("sentence", "apposition", "paragraph")


@dataclass(frozen=True)
class WordCase:
    """How often a piece writes a word in lower case, and capitalised inside a sentence."""

    lower: int = 0
    inside: int = 0


def word_cases(text: str) -> dict[str, WordCase]:
    """Every word of `text` (lower case) with its lower-case and capitalised-inside uses
    (both may be none: a word seen only where a sentence starts)."""
    lower: Counter[str] = Counter()
    inside: Counter[str] = Counter()
    seen: set[str] = set()
    starts = {left for left, _ in sentences.spans(text)}
    for match in WORD.finditer(text):
        word = match.group()
        folded = word.lower().replace("\u2019", "'")  # as common_words.word_key
        seen.add(folded)
        if word[0].islower():
            lower[folded] += 1
        elif not _starts(text, match.start(), starts):
            inside[folded] += 1
    return {word: WordCase(lower[word], inside[word]) for word in seen}


def _starts(text: str, at: int, sentence_starts: set[int]) -> bool:
    """Whether the word at `at` starts a sentence or a line (after any opening marks)."""
    before = at
    while before > 0 and text[before - 1] in OPENERS:
        before -= 1
    if before in sentence_starts:
        return True
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    return before == 0 or text[before - 1] == "\n"


def pairs(text: str, mentions: Sequence[Mention]) -> list[tuple[int, int, str]]:
    """(i, j, kind) for mentions i < j of `text` (in text order) met together: in one
    sentence (or, restating one another, in apposition) and in one paragraph."""
    found: list[tuple[int, int, str]] = []
    real = [i for i, m in enumerate(mentions) if m.end > m.start]
    sentence_of = numbered([mentions[i] for i in real], sentences.spans(text))
    paragraphs = _paragraphs(text)
    paragraph_of = numbered([mentions[i] for i in real], paragraphs)
    quoted = _quoted(text, [mentions[i] for i in real], paragraphs)
    # An aside in brackets often glosses a name outside it ("than Blanche; (Miss Ingram was
    # dark as a Spaniard)"): a name in it and a name out of it are not counted apart.
    bracketed = [
        _in_brackets(text, mentions[i].start, paragraphs[p])
        for i, p in zip(real, paragraph_of, strict=True)
    ]
    voice = list(zip(quoted, bracketed, strict=True))
    # A chapter's title names no one apart ("Old Muff's Friends—Muff Potter in Court"); nor
    # does a name used as a common noun after "a".
    aside = [_after_a(text, mentions[i]) or in_heading(text, mentions[i].start) for i in real]
    for x, i in enumerate(real):
        for y in range(x + 1, len(real)):
            j = real[y]
            if paragraph_of[x] != paragraph_of[y]:
                break
            found.append((i, j, "paragraph"))
            pair = (mentions[i], mentions[j])
            # A name called out in a line of dialogue and a name in the narration around it
            # are often one person ('"Miss Jo," said Laurie, and Jo laughed'): not counted.
            if sentence_of[x] == sentence_of[y] and voice[x] == voice[y]:
                next_to = y == x + 1
                if next_to and _calling_beside(text, *pair):
                    found.append((i, j, "apposition"))
                    continue
                if aside[x] or aside[y] or (next_to and _epithet_after(text, *pair)):
                    continue
                restated = next_to and _restates(text, *pair)
                found.append((i, j, "apposition" if restated else "sentence"))
    return found


def _restates(text: str, first: Mention, second: Mention) -> bool:
    """Whether `second` names the person `first` names, by the words between them."""
    gap = text[first.end : second.start]
    if NAMING.match(gap):
        return True
    if not RESTATING.match(gap):
        return False
    a, b = names.parse(first.surface).words, names.parse(second.surface).words
    return any(x == y or given_names.same_given(x, y) for x in a for y in b)


def _epithet_after(text: str, first: Mention, second: Mention) -> bool:
    """Whether `second` is an epithet set after `first` ("Oz, the Great Wizard I told you
    of"), which may say who `first` is, not another person: so neither apart nor restated. In
    a list ("Dorothy, the Scarecrow and the Lion") another name follows."""
    if not EPITHET_GAP.fullmatch(text, first.end, second.start):
        return False
    return LIST_GOES_ON.match(text, second.end) is None


def _calling_beside(text: str, first: Mention, second: Mention) -> bool:
    """Whether a calling the story takes for a name ("the beadle") stands beside a name in
    apposition: "Mr. Bumble, the beadle, ..." (not in a list: "Mr. Bumble, the beadle and
    Oliver") or "The boatswain, Job Anderson, ...": the one restates the other."""
    if not APPOSING.fullmatch(text, first.end, second.start):
        return False
    if CALLING.fullmatch(second.surface):
        return LIST_GOES_ON.match(text, second.end) is None and not _goes_on_with_and(text, second)
    return bool(CALLING.fullmatch(first.surface)) and text.startswith(",", second.end)


def _goes_on_with_and(text: str, mention: Mention) -> bool:
    """Whether "and" follows the mention: a list ("Mr. Bumble, the beadle and Oliver")."""
    return re.match(r"\s+and\b", text[mention.end : mention.end + 8]) is not None


def _after_a(text: str, mention: Mention) -> bool:
    """Whether a name stands after "a" or "an" and the words that describe it ("Oz is a good
    Wizard", "a visit to a great brother Wizard"): a common noun there, naming no one apart
    from the others. Not after a word such as "at" or "that", which ends what "a" began ("a
    call at Meg's", "a firm conviction that Daisy had tumbled")."""
    from spacy.lang.en.stop_words import STOP_WORDS

    found = A_BEFORE.search(text, max(0, mention.start - A_REACH), mention.start)
    return found is not None and not STOP_WORDS & set(found.group("between").lower().split())


def _quoted(
    text: str, mentions: Sequence[Mention], paragraphs: Sequence[tuple[int, int]]
) -> list[bool]:
    """Whether each mention (in text order) stands inside quotation marks in its paragraph
    (`address.in_quotation`)."""
    found: list[bool] = []
    numbers = numbered(mentions, paragraphs)
    for mention, number in zip(mentions, numbers, strict=True):
        found.append(in_quotation(text[paragraphs[number][0] : mention.start]))
    return found


def _in_brackets(text: str, at: int, paragraph: tuple[int, int]) -> bool:
    """Whether `at` stands inside round brackets opened in its paragraph."""
    return text.rfind("(", paragraph[0], at) > text.rfind(")", paragraph[0], at)


def numbered(mentions: Sequence[Mention], spans: Iterable[tuple[int, int]]) -> list[int]:
    """The number of the span (sentence or paragraph) each mention starts in."""
    bounds = [end for _, end in spans]
    numbers: list[int] = []
    at = 0
    for mention in mentions:
        while at < len(bounds) - 1 and mention.start >= bounds[at]:
            at += 1
        numbers.append(at)
    return numbers


def _paragraphs(text: str) -> list[tuple[int, int]]:
    from loci.toolsets.story.valve import paragraph_spans

    return paragraph_spans(text)

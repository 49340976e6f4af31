"""Sentences as a reader sees them: the one sentence splitter of loci.

A sentence ends at ".", "!", "?" or "…" (with any closing quotes or brackets after it) followed by
white space and a word that does not start in lower case, and at a blank line (a heading has
no full stop); never after a title's or a given name's abbreviation or an initial ("Mr.
Darcy", "Jas. Hook", "R. Walton"), nor inside a line of dialogue whose attribution goes on
('"Hurrah!" cried Jo', '"Why?" Hannah Lindqvist asked'). With `lines`, a line break ends a
sentence too: notes, lists and checkpoint contexts put one statement per line, where a novel
wraps its lines anywhere.

Written here rather than taken from spaCy: its sentence splitter needs its parser or senter,
which would add to the cost of the NER the story already runs and load a model for every
memory, checkpoint and context file that is cut into sentences; its rule-based `sentencizer`
splits after every "Mr." and inside '"Hurrah!" cried Jo'. These rules read the same cues.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

END = re.compile(r"[.!?\u2026]+[\"'\u201d\u2019)\]_*]*(?=\s|$)")
#: Given names written abbreviated, as letters and old books sign them ("Jas. Hook", "Wm.
#: Dobbin"); the nickname lists hold none of them.
GIVEN_ABBREVIATIONS = {
    **{"jas": "james", "wm": "william", "chas": "charles", "thos": "thomas", "geo": "george"},
    **{"jno": "john", "saml": "samuel", "robt": "robert", "benj": "benjamin", "jos": "joseph"},
    **{"edw": "edward", "richd": "richard", "hy": "henry", "fredk": "frederick"},
}
#: Titles and given names written abbreviated, with a full stop that does not end the sentence
#: ("Mr. Darcy", "Jas. Hook").
ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "messrs", "mme", "mlle", "dr", "st", "rev", "capt", "col", "gen", "lt"}
    | {"sgt", "prof", "hon", "sr", "jr", "esq", "gov", "maj", "adm", "cpl", "fr"}
    | set(GIVEN_ABBREVIATIONS)
)
#: Abbreviations written before a number ("No. 3", "vol. 2", "p. 14"), whose full stop a
#: number after it does not end a sentence at.
BEFORE_NUMBERS = frozenset({"no", "nos", "vol", "vols", "p", "pp", "fig", "ch", "art"})
#: Closing quotation marks, and the name and verb of an attribution after a line of dialogue
#: closed by "?" or "!", which go on with its sentence.
QUOTES = "\"'\u201d\u2019"
ATTRIBUTION = re.compile(
    r"(?:[A-Z][\w'\u2019-]*\.?\s+){1,3}(?:said|asked|cried|replied|answered|shouted|called"
    r"|whispered|exclaimed|muttered|demanded|snapped|yelled|screamed|begged|pleaded)\b"
)
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
LINE_BREAK = re.compile(r"\n\s*")
ABBREVIATION_WORD = re.compile(r"(?:^|(?<=[\s(\"'\u201c\u2018_]))([A-Za-z][a-z]{0,5})\.$")


def spans(
    text: str, start: int = 0, end: int | None = None, *, lines: bool = False
) -> Iterator[tuple[int, int]]:
    """The sentences of text[start:end] as [start, end) spans covering every character (each
    with the space after it); with `lines`, a line break ends a sentence too."""
    stop = len(text) if end is None else end
    begin = start
    # A blank line ends a paragraph, and its sentence (a heading has no full stop); with
    # `lines`, any line break does.
    for brk in (LINE_BREAK if lines else PARAGRAPH_BREAK).finditer(text, start, stop):
        yield from _spans(text, begin, brk.end())
        begin = brk.end()
    if begin < stop:
        yield from _spans(text, begin, stop)


def split(text: str, *, lines: bool = False) -> list[str]:
    """The sentences of `text`, without the space around them (empty ones left out)."""
    found = (text[left:right].strip() for left, right in spans(text, lines=lines))
    return [sentence for sentence in found if sentence]


def _spans(text: str, start: int, stop: int) -> Iterator[tuple[int, int]]:
    begin = start
    for match in END.finditer(text, start, stop):
        if not _ends_sentence(text, match.start(), match.end(), stop):
            continue
        after = match.end()
        while after < stop and text[after].isspace():
            after += 1
        yield begin, after
        begin = after
    if begin < stop:
        yield begin, stop


def around(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence holding [start, end) of `text` (within its paragraph)."""
    paragraph_start = text.rfind("\n\n", 0, start)
    paragraph_start = 0 if paragraph_start < 0 else paragraph_start + 2
    paragraph_end = text.find("\n\n", end)
    paragraph_end = len(text) if paragraph_end < 0 else paragraph_end
    for left, right in spans(text, paragraph_start, paragraph_end):
        if right >= end:
            return min(left, start), right
    return paragraph_start, paragraph_end


def _ends_sentence(text: str, mark: int, after: int, stop: int) -> bool:
    """Whether the stop at text[mark:after] ends a sentence."""
    following = after
    while following < stop and text[following].isspace():
        following += 1
    if following < stop and text[following].islower():
        return False  # '"Hurrah!" cried Jo', "etc. and so on"
    if text[mark] in "!?" and text[after - 1] in QUOTES and ATTRIBUTION.match(text, following):
        return False  # '"What's she saying?" Hannah Lindqvist asked'
    if text[mark] != "." or (after - mark > 1 and text[mark + 1] == "."):
        return True
    word = ABBREVIATION_WORD.search(text, max(0, mark - 8), mark + 1)
    if word is not None and following < stop and text[following].isdigit():
        return word.group(1).lower() not in BEFORE_NUMBERS  # "Photo No. 3", "vol. 2"
    return word is None or not is_abbreviation(word.group(1))


def is_abbreviation(word: str) -> bool:
    """Whether `word` (without its full stop) is a title's or a given name's abbreviation
    ("Mr", "Dr", "Jas") or an initial ("R"): a full stop after it does not end a sentence."""
    if len(word) == 1:
        return word.isupper()
    return word[0].isupper() and word.lower() in ABBREVIATIONS


def clipped(sentence: str, most: int, keep: Sequence[str] = ()) -> str:
    """`sentence` on one line, cut at a word with an ellipsis when it is longer than `most`
    characters (never mid-word, never ending on a space). `keep`: names the sentence is shown
    for (a suggestion's evidence); when the plain cut would lose the first of them, the cut
    falls around them instead, with as many of them as fit."""
    line = " ".join(sentence.split())
    if len(line) <= most:
        return line
    plain = line[: most - 1].rsplit(" ", 1)[0].rstrip(",;:")
    kept = _kept_span(line, keep, most - 2)
    if kept is None or kept[1] <= len(plain):
        return plain + ELLIPSIS
    return _window(line, kept, most)


ELLIPSIS = "\u2026"


def _kept_span(line: str, keep: Sequence[str], room: int) -> tuple[int, int] | None:
    """From the first written of the names `keep` to the last that still fits in `room`."""
    found = sorted(
        match.span()
        for name in keep
        if name and (match := re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line, re.IGNORECASE))
    )
    if not found:
        return None
    start, end = found[0]
    for _, right in found[1:]:
        if right - start <= room:
            end = max(end, right)
    return start, end


def _window(line: str, kept: tuple[int, int], most: int) -> str:
    """The words of `line` around line[kept[0]:kept[1]], with an ellipsis at each cut, in at
    most `most` characters."""
    start, end = kept
    left = max(0, start - (most - 2 - (end - start)) // 2)
    right = min(len(line), left + most - 2)
    left = max(0, right - (most - 2)) if right == len(line) else left
    if left > 0:  # begin on a word
        space = line.find(" ", left - 1)
        left = space + 1 if 0 <= space < start else start
    if right < len(line):  # end on a word
        space = line.rfind(" ", end, right + 1)
        right = space if space >= end else end
    head = ELLIPSIS if left > 0 else ""
    tail = ELLIPSIS if right < len(line) else ""
    return head + line[left:right].strip().rstrip(",;:" if tail else "") + tail

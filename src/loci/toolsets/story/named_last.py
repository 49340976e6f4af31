"""Which of several people a shared name means, as a reader tells: the one of them named last
before it. *Tom Sawyer* writes "Joe" alone 83 times; Joe Harper and Injun Joe both carry it,
and the boys' company and the murderer's overlap too much for company to tell them apart. But
63 of those "Joe"s come after "Joe Harper" was the last of the two written, and 20 after
"Injun Joe": the bare name is mostly the boy's, which a reader sees at once. (Counted within a
page, as below, it is 22 to 20, with 41 pages from both: no carrier stands out.)

The count reads the text as written (whole words, a name's words across a line break); a
"Joe" inside a longer name ("Injun Joe") is that name, not the bare one. A bare name written
pages after any carrier's name follows none of them: *Treasure Island*'s seaman "Tom", whom
Silver kills, is no Tom Redruth, named three chapters before; a name mostly so far from its
carriers is no one's of them; but a title and a family name alone ("Miss Ingram", named
chapters away from "Blanche") is one of the family's whoever is named near it.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from loci.toolsets.story import names
from loci.toolsets.story.entity import Entity

#: One carrier is the name's when named last before it this many times as often as the next,
#: and at least NAMED_LAST_LEAST times.
CLEARLY_MORE = 2.0
NAMED_LAST_LEAST = 5
#: Mentions added to each carrier's when weighing its share (one named thrice, last before
#: two, tells little).
FEW_MENTIONS = 10
#: The most characters a name runs past a shorter one inside it ("Joe" in "Joe Harper").
LONGEST_NAME = 80
#: How far (characters, about a page) a carrier's name may stand before a bare name it is
#: the last named before.
NAMED_LAST_REACH = 3000
#: Titles that, before a family name alone, name one of that family ("Miss Ingram").
FAMILY_TITLES = frozenset({"mr", "mrs", "miss", "master"})
#: How far before a bare name the sentence of evidence may begin at the carrier's name.
EVIDENCE_REACH = 240


@dataclass(frozen=True)
class NamedLast:
    """For each carrier (by id), how many times the bare name follows their name; and where
    the bare name follows one most closely (the carrier's name's start, the bare name's
    end), as evidence."""

    counts: Counter[int]
    closest: dict[int, tuple[int, int]]
    #: How many times the bare name stands beyond reach of every carrier's name.
    away: int = 0


def carrier_named_last(
    text: str, guest: Entity, carriers: Sequence[Entity]
) -> tuple[Entity, str, str] | None:
    """The one of `carriers` (who all carry `guest`'s name) that `text` names last before
    `guest` far more often than any other, with the reason in words and a passage of
    evidence; None when none stands out."""
    found = named_last(text, guest.name, {c.id: c.aliases for c in carriers})
    ranked = found.counts.most_common()
    if not ranked:
        return None
    top, times = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    if times < max(NAMED_LAST_LEAST, CLEARLY_MORE * second) or not _beyond_chance(
        found.counts, carriers, top
    ):
        return None
    if 2 * times < found.counts.total() + found.away and not _of_a_family(guest.name):
        return None  # mostly far from them all: someone else's too
    by_id = {c.id: c for c in carriers}
    others = (
        ", ".join(f"{n} after {by_id[c].name!r}" for c, n in ranked[1:]) or "none after another"
    )
    far = f", {found.away} far from any of them" if found.away else ""
    reason = (
        f"{guest.name!r}, a name {len(carriers)} people carry, is written alone "
        f"{found.counts.total() + found.away} times: {times} after {by_id[top].name!r} was the "
        f"last of them named, {others}{far}"
    )
    return by_id[top], reason, evidence_between(text, found.closest[top])


def _of_a_family(written: str) -> bool:
    """Whether `written` is a plain title and a family name alone ("Miss Ingram"): one of the
    family's people wherever it stands, where a bare given name ("Tom") far from every carrier
    may be someone the story never names in full."""
    name = names.parse(written)
    return bool(name.titles & FAMILY_TITLES) and not name.given and bool(name.bare)


def _beyond_chance(counts: Counter[int], carriers: Sequence[Entity], top: int) -> bool:
    """Whether `top` is named last before the name more often for its mentions too, by
    CLEARLY_MORE, than any other carrier: the hero, named everywhere, is named last before
    anything (*The Secret Garden*'s Colin, before "Mester Craven", his father)."""
    mentions = {c.id: c.mentions + FEW_MENTIONS for c in carriers}
    rate = counts[top] / mentions[top]
    return all(rate >= CLEARLY_MORE * counts[c] / mentions[c] for c in mentions if c != top)


def named_last(text: str, written: str, carriers: Mapping[int, Sequence[str]]) -> NamedLast:
    """Each time `text` writes `written` on its own, the carrier (of `carriers`: id to their
    longer names) whose name was written last before it, counted."""
    marks = sorted(
        (end, start, carrier)
        for carrier, forms in carriers.items()
        for form in forms
        if form != written
        for start, end in _spans(text, form)
    )
    ends = [end for end, _, _ in marks]
    counts: Counter[int] = Counter()
    closest: dict[int, tuple[int, int]] = {}
    away = 0
    for start, end in _spans(text, written):
        if _inside(marks, bisect.bisect_left(ends, end), start, end):
            continue  # a longer name: "Joe" of "Injun Joe"
        last = bisect.bisect_right(ends, start) - 1
        if last < 0 or start - marks[last][0] > NAMED_LAST_REACH:
            away += 1
            continue
        _, begun, carrier = marks[last]
        counts[carrier] += 1
        near = closest.get(carrier)
        if near is None or end - begun < near[1] - near[0]:
            closest[carrier] = (begun, end)
    return NamedLast(counts, closest, away)


def _inside(marks: Sequence[tuple[int, int, int]], first: int, start: int, end: int) -> bool:
    """Whether a mark from `first` on (by end) holds [start, end): one ending within a name's
    length of it."""
    for mark_end, mark_start, _ in marks[first:]:
        if mark_end > end + LONGEST_NAME:
            return False
        if mark_start <= start:
            return True
    return False


def _spans(text: str, form: str) -> Iterator[tuple[int, int]]:
    words = r"\s+".join(re.escape(word) for word in form.split())
    for found in re.finditer(rf"(?<![\w.]){words}(?!\w)", text):
        yield found.start(), found.end()


def evidence_between(text: str, where: tuple[int, int]) -> str:
    """The sentences from a carrier's name to the bare name after it (`where`), on one line,
    if they are short enough to read; else the bare name's sentence (cut at a word, with an
    ellipsis, where it runs on past EVIDENCE_REACH)."""
    from loci import sentences

    begun, end = where
    window_start = max(0, begun - EVIDENCE_REACH)
    window = text[window_start : min(len(text), end + EVIDENCE_REACH)]
    spans = [(window_start + a, window_start + b) for a, b in sentences.spans(window)]
    first = next((a for a, b in spans if a <= begun < b), begun)
    last = next((b for a, b in spans if a < end <= b), end)
    if last - first > 2 * EVIDENCE_REACH:
        first = next((a for a, b in spans if a < end <= b), begun)
    said = " ".join(text[first:last].split())
    window_end = window_start + len(window)
    if last >= window_end and window_end < len(text):  # a sentence the window cut: "endu"
        said = said.rsplit(" ", 1)[0] + "\u2026"
    return said

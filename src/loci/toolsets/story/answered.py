"""Names answered to: a name called out in dialogue that one other character answers, in the
paragraph after, time and again. Moby-Dick's Peleg calls Queequeg "Quohog" ("I say, Quohog, or
whatever your name is, did you ever strike a fish?"), and each time the next paragraph opens on
Queequeg ("Without saying a word, Queequeg ... jumped upon the bulwarks"): a speaker's own name
for a character, a nickname or a mistake, which no list of names knows.

A name the narration writes often is a character of its own whoever answers it, and a name
called out beside its answerer in the same paragraph's narration says nothing of who answers
(the one calling, or someone else present, may be named there).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence

from loci import sentences
from loci.toolsets.story import address, names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithets import EVIDENCE_CHARS, QUOTED
from loci.toolsets.story.evidence import merge_suggestion
from loci.toolsets.story.models import CastSuggestion

#: The fewest calls one character answers for the name to be suggested as theirs.
ANSWERED_LEAST = 3
#: The least share of a name's calls that one character answers.
ANSWERED_SHARE = 0.6
#: A name written in narration more than this share of its uses is a character of its own.
NARRATED_SHARE = 0.25


def answered_suggestions(
    text: str, entities: Sequence[Entity], characters: Sequence[Entity]
) -> list[CastSuggestion]:
    """A merge of each name called out at least ANSWERED_LEAST times, seldom written in
    narration, into the one character the paragraph after its calls names first, most times
    (at least ANSWERED_SHARE of them), and who is mentioned at least as often."""
    paragraphs = _paragraphs(text)
    ends = [end for _, end in paragraphs]
    owner = {names.key(a): e for e in entities if e.kind != "place" for a in e.aliases}
    calls: dict[int, list[int]] = {}
    for start, end in sorted(set(address.called(text, within=True))):
        guest = owner.get(names.key(text[start:end]))
        if guest is not None:
            calls.setdefault(guest.id, []).append(start)
    by_id = {e.id: e for e in entities}
    finder = _Finder(characters)
    suggested = []
    for guest_id, starts in calls.items():
        guest = by_id[guest_id]
        if len(starts) < ANSWERED_LEAST or _narrated(text, paragraphs, guest) > NARRATED_SHARE:
            continue
        answers: Counter[int] = Counter()
        said: dict[int, str] = {}
        for start in starts:
            at = bisect.bisect_right(ends, start)
            found = _answer(text, paragraphs, at, finder, guest)
            if found is not None:
                answers[found[0].id] += 1
                said.setdefault(found[0].id, f"{_sentence(text, start)} {found[1]}")
        if not answers:
            continue
        host_id, count = answers.most_common(1)[0]
        host = by_id[host_id]
        if count < max(ANSWERED_LEAST, ANSWERED_SHARE * len(starts)):
            continue
        if host.mentions < guest.mentions:
            continue
        reason = (
            f"{guest.name!r} is called out {len(starts)} times, and {count} times the "
            f"paragraph after opens on {host.name!r}, who answers to it"
        )
        suggested.append(merge_suggestion(guest, host, reason, said[host_id]))
    return suggested


class _Finder:
    """The characters' names as one pattern, to find the first of them a text writes."""

    def __init__(self, characters: Sequence[Entity]) -> None:
        self.owner = {a: e for e in characters for a in e.aliases}
        alternatives = "|".join(map(re.escape, sorted(self.owner, key=len, reverse=True)))
        self.pattern = re.compile(rf"(?<![\w.])(?:{alternatives})(?!\w)") if self.owner else None

    def named(self, text: str) -> list[Entity]:
        """The characters `text` names, in order."""
        if self.pattern is None:
            return []
        return [self.owner[m.group()] for m in self.pattern.finditer(text)]


def _answer(
    text: str,
    paragraphs: Sequence[tuple[int, int]],
    at: int,
    finder: _Finder,
    guest: Entity,
) -> tuple[Entity, str] | None:
    """The character named first in the narration of the paragraph after paragraph `at`, and
    its sentence; None when there is none, when it is the guest, or when the calling
    paragraph's narration names them too."""
    if at + 1 >= len(paragraphs):
        return None
    left, right = paragraphs[at + 1]
    following = text[left:right]
    named = finder.named(QUOTED.sub(" ", following))
    if not named or named[0].id == guest.id:
        return None
    calling = text[paragraphs[at][0] : paragraphs[at][1]]
    if named[0].id in {e.id for e in finder.named(QUOTED.sub(" ", calling))}:
        return None
    held = (s for s in sentences.split(following) if named[0].id in _ids(finder, s))
    first = next(held, following)  # a name read across a quotation taken out: its paragraph
    return named[0], sentences.clipped(" ".join(first.split()), EVIDENCE_CHARS // 2)


def _ids(finder: _Finder, text: str) -> set[int]:
    return {e.id for e in finder.named(text)}


def _narrated(text: str, paragraphs: Sequence[tuple[int, int]], guest: Entity) -> float:
    """The share of the guest's names' uses that stand outside quotation marks (`paragraphs`:
    the spans of the text's paragraphs)."""
    pattern = re.compile(rf"(?<![\w.])(?:{'|'.join(map(re.escape, guest.aliases))})(?!\w)")
    inside = outside = 0
    for left, right in paragraphs:
        paragraph = text[left:right]
        uses = len(pattern.findall(paragraph))
        if uses:
            narrated = len(pattern.findall(QUOTED.sub(" ", paragraph)))
            outside += narrated
            inside += uses - narrated
    return outside / (inside + outside) if inside + outside else 1.0


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """The spans of the paragraphs of `text` (split at blank lines)."""
    spans, start = [], 0
    for match in re.finditer(r"\n\s*\n", text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


def _sentence(text: str, at: int) -> str:
    left, right = sentences.around(text, at, at + 1)
    return sentences.clipped(" ".join(text[left:right].split()), EVIDENCE_CHARS // 2)

"""The pressure valve: which oldest complete units of the window go to the archive.

The window is cut into units at paragraph breaks (a blank line, so also at scene breaks); a
paragraph longer than a chunk is cut between sentences, and a sentence longer than a chunk
between words. Relief takes whole units from the oldest end, packed into chunks of at most
`chunk_tokens`, until the window is down to its target; every unit it takes lowers the window,
so relief always ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from loci import sentences
from loci.token_count import TokenCounter

PARAGRAPH_BREAK = re.compile(r"\r?\n[ \t\r]*\n(?:[ \t\r]*\n)*")
WORDS = re.compile(r"\S+\s*")


@dataclass(frozen=True)
class Unit:
    """A complete unit of the stream: characters [start, end) and their tokens."""

    start: int
    end: int
    tokens: int


@dataclass(frozen=True)
class Cut:
    """A chunk relief archives: stream characters [start, end), and its tokens."""

    start: int
    end: int
    tokens: int


def units(text: str, offset: int, counter: TokenCounter, most_tokens: int) -> list[Unit]:
    """`text` (starting at stream offset `offset`) as complete units of at most
    `most_tokens` each, in order, covering every character."""
    paragraphs = paragraph_spans(text)
    counts = counter.count_many([text[start:end] for start, end in paragraphs])
    found: list[Unit] = []
    for (start, end), tokens in zip(paragraphs, counts, strict=True):
        if tokens <= most_tokens:
            found.append(Unit(offset + start, offset + end, tokens))
        else:
            found.extend(_fitted(text, (start, end), offset, counter, most_tokens))
    return found


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """The paragraphs of `text` as [start, end) spans covering every character (each with
    the blank lines after it)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for gap in PARAGRAPH_BREAK.finditer(text):
        if gap.end() > start:
            spans.append((start, gap.end()))
            start = gap.end()
    if start < len(text) or not spans:
        spans.append((start, len(text)))
    return spans


def plan_relief(
    window: list[Unit], window_tokens: int, target: int, chunk_tokens: int
) -> list[Cut]:
    """The chunks to archive, oldest first, so that the window's tokens fall to `target` or
    below."""
    cuts: list[Cut] = []
    remaining = window_tokens
    taken: list[Unit] = []
    for unit in window:
        if remaining <= target:
            break
        if taken and sum(u.tokens for u in taken) + unit.tokens > chunk_tokens:
            cuts.append(_cut(taken))
            taken = []
        taken.append(unit)
        remaining -= unit.tokens
    if taken:
        cuts.append(_cut(taken))
    return cuts


def _cut(taken: list[Unit]) -> Cut:
    return Cut(taken[0].start, taken[-1].end, sum(u.tokens for u in taken))


def _fitted(
    text: str, span: tuple[int, int], offset: int, counter: TokenCounter, most: int
) -> list[Unit]:
    """The span as one unit, or cut into sentences (then words) when over `most` tokens."""
    start, end = span
    tokens = counter.count(text[start:end])
    if tokens <= most:
        return [Unit(offset + start, offset + end, tokens)]
    pieces = list(sentences.spans(text, start, end)) or [span]
    if pieces == [span]:
        pieces = _spans(WORDS, text, start, end)
    if len(pieces) == 1:  # one word over the limit: it stays whole
        return [Unit(offset + start, offset + end, tokens)]
    return _packed(text, pieces, offset, counter, most)


def _packed(
    text: str, pieces: list[tuple[int, int]], offset: int, counter: TokenCounter, most: int
) -> list[Unit]:
    """Consecutive pieces grouped into units of at most `most` tokens."""
    found: list[Unit] = []
    group_start, group_tokens = pieces[0][0], 0
    last_end = pieces[0][0]
    for start, end in pieces:
        tokens = counter.count(text[start:end])
        if tokens > most:
            if group_tokens:
                found.append(Unit(offset + group_start, offset + start, group_tokens))
            found.extend(_fitted(text, (start, end), offset, counter, most))
            group_start, group_tokens, last_end = end, 0, end
            continue
        if group_tokens and group_tokens + tokens > most:
            found.append(Unit(offset + group_start, offset + start, group_tokens))
            group_start, group_tokens = start, 0
        group_tokens += tokens
        last_end = end
    if group_tokens:
        found.append(Unit(offset + group_start, offset + last_end, group_tokens))
    return found


def _spans(pattern: re.Pattern[str], text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Non-empty consecutive matches of `pattern` covering text[start:end]."""
    found = [
        (start + m.start(), start + m.end())
        for m in pattern.finditer(text[start:end])
        if m.end() > m.start()
    ]
    return found or [(start, end)]

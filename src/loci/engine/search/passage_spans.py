"""Long memories cut into passages the embedding model reads whole.

MiniLM reads the first 256 word pieces of a text, about 180 English words: a longer memory is
also embedded as passages of whole sentences, each overlapping the one before by a sentence,
so that the vector search finds it by any of its parts (`storage.indexes.passages`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from loci.sentences import spans as sentence_spans

#: A memory longer than this many words gets passages.
LONG_WORDS = 150
#: Most words in one passage (a sentence longer than that is cut at word boundaries).
PASSAGE_WORDS = 100
WORD = re.compile(r"\S+")

Span = tuple[int, int]


def spans(text: str, sentences: Iterable[Span] | None = None) -> list[Span]:
    """The passages of `text` as character spans [start, end); none for a short text.
    `sentences`: the text's sentences as spans, when the caller has them (else each line
    break ends a sentence too, as in notes and lists)."""
    words = list(WORD.finditer(text))
    if len(words) <= LONG_WORDS:
        return []
    pieces = _pieces(text, sentences)
    found: list[Span] = []
    first = 0
    while first < len(pieces):
        last, count = first, pieces[first][2]
        while last + 1 < len(pieces) and count + pieces[last + 1][2] <= PASSAGE_WORDS:
            last += 1
            count += pieces[last][2]
        found.append((pieces[first][0], pieces[last][1]))
        if last + 1 >= len(pieces):
            break
        first = last if last > first else last + 1  # overlap by one sentence
    return found


def _pieces(text: str, sentences: Iterable[Span] | None) -> list[tuple[int, int, int]]:
    """Sentences as (start, end, words), those over PASSAGE_WORDS cut into word runs."""
    pieces: list[tuple[int, int, int]] = []
    found = sentence_spans(text, lines=True) if sentences is None else sentences
    for start, end in found:
        words = list(WORD.finditer(text, start, end))
        for at in range(0, len(words), PASSAGE_WORDS):
            run = words[at : at + PASSAGE_WORDS]
            pieces.append((run[0].start(), run[-1].end(), len(run)))
    return pieces

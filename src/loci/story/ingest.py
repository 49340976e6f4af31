"""What a new piece of story brings, worked out before the write transaction: its tokens, its
passages with their vectors, and the names it mentions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from loci.search import passages
from loci.story import valve
from loci.story.entities import Extractor, Mention
from loci.story.graph import Observed, excerpt
from loci.tokens import TokenCounter


@dataclass(frozen=True)
class Piece:
    """A piece of text to append, read and embedded."""

    role: str
    text: str
    tokens: int
    spans: list[tuple[int, int]]
    vectors: npt.NDArray[np.float32]
    mentions: list[Mention]
    paragraphs: list[int]

    def observed(self, token_start: int) -> list[Observed]:
        """The mentions with their story positions, when the piece starts at `token_start`."""
        return [
            Observed(m, self.position(token_start, m.start), excerpt(self.text, m.start, m.end), p)
            for m, p in zip(self.mentions, self.paragraphs, strict=True)
        ]

    def position(self, token_start: int, offset: int) -> int:
        """Story position (tokens) of a character offset in the piece, pro rata."""
        return token_start + (self.tokens * offset) // max(1, len(self.text))


def read(
    texts: Sequence[tuple[str, str]],
    counter: TokenCounter,
    extractor: Extractor,
    known: Sequence[str],
    embed: Callable[[Sequence[str]], npt.NDArray[np.float32]],
) -> list[Piece]:
    """The pieces of (role, text) pairs, their passages embedded in one call."""
    cuts = [passages.spans(text) or [(0, len(text))] for _, text in texts]
    pieces_text = [
        text[s:e] for (_, text), spans in zip(texts, cuts, strict=True) for s, e in spans
    ]
    vectors = embed(pieces_text) if pieces_text else np.zeros((0, 0), np.float32)
    read_pieces: list[Piece] = []
    at = 0
    for (role, text), spans in zip(texts, cuts, strict=True):
        mentions = extractor.mentions(text, known)
        read_pieces.append(
            Piece(
                role=role,
                text=text,
                tokens=counter.count(text),
                spans=spans,
                vectors=vectors[at : at + len(spans)],
                mentions=mentions,
                paragraphs=_paragraph_of(text, mentions),
            )
        )
        at += len(spans)
    return read_pieces


def _paragraph_of(text: str, mentions: Sequence[Mention]) -> list[int]:
    """The number of the paragraph each mention is in."""
    bounds = [end for _, end in valve.paragraph_spans(text)]
    found: list[int] = []
    paragraph = 0
    for mention in mentions:
        while paragraph < len(bounds) - 1 and mention.start >= bounds[paragraph]:
            paragraph += 1
        found.append(paragraph)
    return found

"""What a new piece of story brings, worked out before the write transaction: its tokens, its
passages with their vectors, the names it mentions, how it writes its words, and which of its
names meet."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from loci import fields, sentences
from loci.engine.search import passage_spans as passages
from loci.errors import InvalidInputError
from loci.token_count import TokenCounter
from loci.toolsets.story import reading, valve
from loci.toolsets.story.mentions import Extractor, Mention
from loci.toolsets.story.name_rows import Observed

#: Longest sentence kept as an excerpt of a mention, in characters.
EXCERPT_CHARS = 280


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
    words: dict[str, reading.WordCase]
    pairs: list[tuple[int, int, str]]

    def observed(self, token_start: int) -> list[Observed]:
        """The mentions with their story positions, when the piece starts at `token_start`."""
        return [
            Observed(m, self.position(token_start, m.start), excerpt(self.text, m.start, m.end), p)
            for m, p in zip(self.mentions, self.paragraphs, strict=True)
        ]

    def position(self, token_start: int, offset: int) -> int:
        """Story position (tokens) of a character offset in the piece, pro rata."""
        return token_start + (self.tokens * offset) // max(1, len(self.text))


def interaction(user_input: str, assistant_response: str, max_bytes: int) -> list[tuple[str, str]]:
    """The (role, text) pairs of an interaction with text, each checked: a string, of at most
    `max_bytes` bytes of UTF-8, without NUL characters. Both empty is refused."""
    texts = [
        (role, _checked(text, field, max_bytes))
        for role, text, field in (
            ("user", user_input, "user_input"),
            ("assistant", assistant_response, "assistant_response"),
        )
    ]
    texts = [(role, text) for role, text in texts if text.strip()]
    if not texts:
        raise InvalidInputError(
            "user_input and assistant_response are both empty: give the story some text",
            field="assistant_response",
        )
    return texts


def _checked(value: str, field: str, max_bytes: int) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{field} must be a string", field=field)
    size = len(fields.utf8(value, field))
    if size > max_bytes:
        raise InvalidInputError(
            f"{field} is {size} bytes; the limit is {max_bytes} "
            "(LOCI_STORY_MAX_INPUT_BYTES); `loci story import` takes whole manuscripts",
            field=field,
            size_bytes=size,
            max_bytes=max_bytes,
        )
    if "\x00" in value:
        raise InvalidInputError(f"{field} must not contain NUL characters", field=field)
    return value


def read(
    texts: Sequence[tuple[str, str]],
    counter: TokenCounter,
    extractor: Extractor,
    read_with: tuple[Sequence[str], str],
    embed: Callable[[Sequence[str]], npt.NDArray[np.float32]],
) -> list[Piece]:
    """The pieces of (role, text) pairs, their passages embedded in one call; `read_with`
    holds the names known so far and the story's text before the pieces (the closing of a
    letter whose signature opens the first, `loci.toolsets.story.letters`)."""
    known, before = read_with
    cuts = [passages.spans(text, sentences.spans(text)) or [(0, len(text))] for _, text in texts]
    pieces_text = [
        text[s:e] for (_, text), spans in zip(texts, cuts, strict=True) for s, e in spans
    ]
    vectors = embed(pieces_text) if pieces_text else np.zeros((0, 0), np.float32)
    read_pieces: list[Piece] = []
    at = 0
    for (role, text), spans in zip(texts, cuts, strict=True):
        mentions = extractor.mentions(text, known, before)
        before = text
        read_pieces.append(
            Piece(
                role=role,
                text=text,
                tokens=counter.count(text),
                spans=spans,
                vectors=vectors[at : at + len(spans)],
                mentions=mentions,
                paragraphs=reading.numbered(mentions, valve.paragraph_spans(text)),
                words=reading.word_cases(text),
                pairs=reading.pairs(text, mentions),
            )
        )
        at += len(spans)
    return read_pieces


def excerpt(text: str, start: int, end: int) -> str:
    """The sentence around [start, end) of `text`, at most EXCERPT_CHARS long: of a longer
    one, the words around the name, with an ellipsis where the sentence was cut (a reader
    takes "James Stevenson, Esq. of South Park, ..." for where *Persuasion* introduces Anne,
    without one)."""
    left, right = sentences.around(text, start, end)
    if right - left <= EXCERPT_CHARS:
        return " ".join(text[left:right].split())
    first = max(left, start - EXCERPT_CHARS // 2)
    last = min(right, first + EXCERPT_CHARS)
    first, last = _word_start(text, first, start), _word_end(text, last, end)
    before = sentences.ELLIPSIS if text[left:first].strip() else ""
    after = sentences.ELLIPSIS if text[last:right].strip() else ""
    return f"{before}{' '.join(text[first:last].split())}{after}"


def _word_start(text: str, at: int, limit: int) -> int:
    """`at`, moved forward to the start of a word (not past `limit`)."""
    while at < limit and at > 0 and not text[at - 1].isspace():
        at += 1
    return at


def _word_end(text: str, at: int, limit: int) -> int:
    """`at`, moved back to the end of a word (not before `limit`)."""
    while at > limit and at < len(text) and not text[at].isspace():
        at -= 1
    return at

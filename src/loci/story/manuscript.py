"""Reading a manuscript file, whatever its encoding, and cutting it into interactions."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from pydantic import BaseModel

from loci.errors import InvalidInputError
from loci.story import valve
from loci.story.service import StoryService
from loci.tokens import TokenCounter

#: The lines Project Gutenberg puts around a book (older files say "THIS PROJECT GUTENBERG").
GUTENBERG_START = re.compile(r"^\s*\*\*\* ?START OF (?:THE|THIS) PROJECT GUTENBERG.*$", re.M | re.I)
GUTENBERG_END = re.compile(r"^\s*\*\*\* ?END OF (?:THE|THIS) PROJECT GUTENBERG.*$", re.M | re.I)
#: Encodings preferred when several fit a file equally well, most common first.
COMMON_ENCODINGS = ("cp1252", "latin_1", "iso8859_15", "mac_roman", "cp1250", "cp1251")
#: Tokens per interaction when a manuscript is streamed into a session.
INTERACTION_TOKENS = 400


def read_text(path: Path, data: bytes | None = None) -> str:
    """The text of `path`: UTF-8 (with or without BOM), else the encoding charset-normalizer
    finds; line ends become "\\n". Undecodable bytes are refused, never replaced."""
    raw = path.read_bytes() if data is None else data
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = _detected(path, raw, exc)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def without_gutenberg_licence(text: str) -> str:
    """The book between Project Gutenberg's START and END lines (its header and licence are
    not the story); the text unchanged when it has no such lines."""
    start, end = GUTENBERG_START.search(text), GUTENBERG_END.search(text)
    if start is None or end is None or end.start() < start.end():
        return text
    return text[start.end() : end.start()].strip("\n")


def interactions(
    text: str, counter: TokenCounter, tokens: int = INTERACTION_TOKENS
) -> Iterator[str]:
    """`text` in pieces of whole paragraphs of about `tokens` tokens (a longer paragraph is
    cut between sentences); joined with blank lines they give back the text's paragraphs."""
    pending: list[str] = []
    size = 0
    for unit in valve.units(text, 0, counter, tokens):
        piece = text[unit.start : unit.end]
        if pending and size + unit.tokens > tokens:
            yield _joined(pending)
            pending, size = [], 0
        pending.append(piece)
        size += unit.tokens
    if pending and _joined(pending):
        yield _joined(pending)


def _joined(pieces: list[str]) -> str:
    return "".join(pieces).strip("\n")


def _detected(path: Path, raw: bytes, failure: UnicodeDecodeError) -> str:
    from charset_normalizer import from_bytes

    matches = list(from_bytes(raw))
    best = matches[0] if matches else None
    if best is not None:
        # Single-byte code pages often fit a text equally well (a novel in cp1252 reads as
        # cp1250 too, with "è" turned into "č"): among the equals, take the most common.
        tied = [
            m.encoding for m in matches if (m.chaos, m.coherence) == (best.chaos, best.coherence)
        ]
        common = next((e for e in COMMON_ENCODINGS if e in tied), None)
        best = next(m for m in matches if m.encoding == (common or best.encoding))
    if best is None or best.encoding is None:
        raise InvalidInputError(
            f"{path}: not UTF-8 (byte 0x{raw[failure.start]:02x} at offset {failure.start}) "
            "and no other encoding fits; convert the file to UTF-8",
            field="file",
            offset=failure.start,
        )
    try:
        return raw.decode(best.encoding)
    except UnicodeDecodeError as exc:
        raise InvalidInputError(
            f"{path}: byte 0x{raw[exc.start]:02x} at offset {exc.start} is not "
            f"{best.encoding}; convert the file to UTF-8",
            field="file",
            offset=exc.start,
        ) from exc


def stream_into(
    service: StoryService,
    session_id: str,
    pieces: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
) -> ImportResult:
    """Send `pieces` through `continue_story` one by one (as the assistant's text), the way a
    writing session would, reporting progress after each."""
    started = time.perf_counter()
    reliefs = 0
    last = None
    for number, piece in enumerate(pieces, start=1):
        last = service.continue_story(session_id, "", piece)
        reliefs += last.relieved
        if progress is not None:
            progress(number, len(pieces))
    return ImportResult(
        session_id=session_id,
        interactions=len(pieces),
        reliefs=reliefs,
        story_tokens=0 if last is None else last.story_tokens,
        window_tokens=0 if last is None else last.window_tokens,
        seconds=round(time.perf_counter() - started, 2),
    )


class ImportResult(BaseModel):
    """What an import streamed."""

    session_id: str
    interactions: int
    reliefs: int
    story_tokens: int
    window_tokens: int
    seconds: float

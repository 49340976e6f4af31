"""Reading a manuscript file, whatever its encoding, and streaming it into a session.

The file's text goes in as interactions of whole paragraphs, cut only at a blank line, so the
story exported afterwards is the file's text to the byte (line ends aside). Importing into a
session that already holds the text is refused (or, when an import was interrupted, resumed
where it stopped), so a story is never doubled by accident.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from loci.errors import ConflictError, InvalidInputError
from loci.token_count import TokenCounter
from loci.toolsets.story import gutenberg, store, sure_suggestions, valve
from loci.toolsets.story.service import StoryService

#: Encodings preferred when several fit a file equally well, most common first.
COMMON_ENCODINGS = ("cp1252", "latin_1", "iso8859_15", "mac_roman", "cp1250", "cp1251")
#: Tokens per interaction when a manuscript is streamed into a session.
INTERACTION_TOKENS = 400
#: Characters of a story's end compared first with each place an import may have stopped.
TAIL_CHECKED = 256
#: Share of a text's even (or odd) bytes that are NUL in UTF-16 written without a byte-order
#: mark (ASCII letters take one byte and a NUL).
UTF16_NUL_SHARE = 0.3


def read_text(path: Path, data: bytes | None = None) -> str:
    """The text of `path`: UTF-8 (with or without BOM), UTF-16 (with or without BOM), else
    the encoding charset-normalizer finds; line ends become "\\n". Undecodable bytes are
    refused, never replaced."""
    raw = path.read_bytes() if data is None else data
    text = _utf16(raw)
    if text is None:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            text = _detected(path, raw, exc)
    if "\x00" in text:
        raise InvalidInputError(
            f"{path}: a NUL character at offset {text.index(chr(0))}: not a text file",
            field="file",
            offset=text.index("\x00"),
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")


def book(text: str, keep_gutenberg: bool = False) -> str:
    """What of a file's text is the story: a Project Gutenberg book without its licence,
    front and back matter (unless `keep_gutenberg`); any other text whole."""
    return text if keep_gutenberg else gutenberg.story_part(text)


def interactions(
    text: str, counter: TokenCounter, tokens: int = INTERACTION_TOKENS
) -> Iterator[str]:
    """`text` in pieces of whole paragraphs of about `tokens` tokens, cut only at a blank
    line (a paragraph longer than that goes whole), so that the pieces joined by the
    stream's separator are `text` again."""
    start = size = 0
    separator = len(store.SEPARATOR)
    for unit in valve.units(text, 0, counter, tokens):
        cut = unit.start - separator
        fits = size + unit.tokens <= tokens
        if size and not fits and cut >= start and text.startswith(store.SEPARATOR, cut):
            yield text[start:cut]
            start, size = unit.start, 0
        size += unit.tokens
    if start < len(text) and text[start:].strip():
        yield text[start:]


def _utf16(raw: bytes) -> str | None:
    """The text of UTF-16 bytes (with a byte-order mark, or without one, told by where its
    NUL bytes fall); None when the bytes are not UTF-16."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    else:
        even, odd = raw[0::2], raw[1::2]
        if not raw or raw.count(0) < UTF16_NUL_SHARE * len(raw) / 2:
            return None
        encoding = "utf-16-be" if even.count(0) > odd.count(0) else "utf-16-le"
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError:
        return None


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


def remaining(
    service: StoryService, session_id: str, pieces: Sequence[str], again: bool = False
) -> tuple[int, list[str]]:
    """Of `pieces`, those the session does not hold yet, and how many it holds: all of them
    for a new session or one holding other text; the rest after an interrupted import of the
    same text (the story ends with its first pieces). A session that holds the whole text
    already, wherever (text may have been added after it), is refused unless `again`."""
    held = service.export(session_id, prompts="omit") if service.exists(session_id) else ""
    if not held or again:
        return 0, list(pieces)
    text = store.SEPARATOR.join(pieces)
    if text in held:
        after = len(held) - held.index(text) - len(text)
        since = f", followed by {after} characters written since" if after > 0 else ""
        raise ConflictError(
            f"the story {session_id!r} already holds this text{since}; import it into a new "
            "--session, or pass --again to add it a second time",
            session_id=session_id,
        )
    done = _held_prefix(held, text, pieces)
    return done, list(pieces[done:])


def _held_prefix(held: str, text: str, pieces: Sequence[str]) -> int:
    """How many of the first `pieces` the story ends with (an import that stopped after
    them), 0 for none. Each boundary is checked by the story's last characters first, so that
    only a boundary that may fit is compared whole."""
    ends = []
    length = -len(store.SEPARATOR)
    for piece in pieces[:-1]:
        length += len(store.SEPARATOR) + len(piece)
        ends.append(length)
    tail = held[-TAIL_CHECKED:]
    for done in range(len(ends), 0, -1):
        end = ends[done - 1]
        may_fit = end <= len(held) and text[max(0, end - len(tail)) : end] == tail[-end:]
        if may_fit and held.endswith(text[:end]):
            return done
    return 0


def stream_into(
    service: StoryService,
    session_id: str,
    pieces: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
    *,
    accept_sure: bool = True,
) -> ImportResult:
    """Send `pieces` through `continue_story` one by one (as the story's text), the way a
    writing session would, reporting progress after each; then work out the cast once more
    from all of it, and (with `accept_sure`) accept the suggestions loci is sure of into a
    cast no one has corrected (`loci.toolsets.story.sure_suggestions`)."""
    started = time.perf_counter()
    before = service.stats(session_id).story_tokens if service.exists(session_id) else 0
    reliefs = 0
    last = None
    for number, piece in enumerate(pieces, start=1):
        last = service.continue_story(session_id, "", piece)
        reliefs += last.relieved
        if progress is not None:
            progress(number, len(pieces))
    counted = service.resolve_cast(session_id) if last is not None else 0
    accepted = []
    if accept_sure and last is not None:
        accepted = sure_suggestions.accept_sure(service, session_id)
    story_tokens = before if last is None else last.story_tokens
    return ImportResult(
        session_id=session_id,
        interactions=len(pieces),
        reliefs=reliefs,
        added_tokens=story_tokens - before,
        story_tokens=story_tokens,
        window_tokens=0 if last is None else last.window_tokens,
        seconds=round(time.perf_counter() - started, 2),
        earlier_mentions=counted,
        accepted=accepted,
    )


class ImportResult(BaseModel):
    """What an import streamed."""

    session_id: str
    interactions: int
    reliefs: int
    added_tokens: int
    story_tokens: int
    window_tokens: int
    seconds: float
    resumed_after: int = 0
    #: Mentions of names NER first found in later text, counted at the end in the text
    #: read before them.
    earlier_mentions: int = 0
    #: Characters of the file that are no story (a licence, a printed book's front and back
    #: matter), left out.
    left_out: int = 0
    #: The suggestions loci was sure of and accepted, each in words (`story corrections`
    #: lists them as loci's; `story undo` takes one back).
    accepted: list[str] = Field(default_factory=list)

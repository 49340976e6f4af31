"""Reading an export file a record at a time: the items of a JSON array (a ChatGPT or Claude
`conversations.json`, streamed with ijson so a 100 MB file is never held whole), one JSON
object (a Gemini CLI session), or JSON lines (Claude Code, Codex CLI, Gemini CLI)."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import ijson

from loci.toolsets.memory.conversations.exports.files import CountingReader, ExportFile
from loci.toolsets.memory.conversations.exports.records import Tally

Shape = Literal["array", "object", "lines"]
Buffered: TypeAlias = "io.BufferedReader[CountingReader]"
#: Lines read ahead to tell the format (the first ones of a log say what it is), and entries
#: of an array of conversations (whole conversations: the first that is one says it).
SAMPLE = 50
ARRAY_SAMPLE = 10


class UnreadableError(Exception):
    """The file stops being JSON part way (cut short, or not JSON at all)."""


@dataclass
class Records:
    """An open file's records: the first few read ahead (`sample`), then all of them in order
    (`items`, the sample included); `stream` counts the bytes read, closing `reader` closes
    the file."""

    shape: Shape
    sample: list[dict[str, Any]]
    items: Iterator[dict[str, Any]]
    stream: CountingReader
    reader: Buffered


def open_records(file: ExportFile, tally: Tally) -> Records:
    """Open `file` and read ahead its first records (the caller closes `reader`). Raises
    UnreadableError if it is not JSON, with the file closed."""
    stream = file.open()
    try:
        return _records(stream, file, tally)
    except BaseException:
        stream.close()
        raise


def _records(stream: CountingReader, file: ExportFile, tally: Tally) -> Records:
    buffered = io.BufferedReader(stream, 1 << 16)
    if file.lines:
        items: Iterator[dict[str, Any]] = _lines(buffered, file.name, tally)
        shape: Shape = "lines"
    else:
        shape = "array" if _first_byte(buffered) == b"[" else "object"
        items = _array(buffered, file.name) if shape == "array" else _object(buffered, file.name)
    sample, problem = _read_ahead(items, SAMPLE if shape == "lines" else ARRAY_SAMPLE)
    rest = items if problem is None else _raise(problem)
    return Records(shape, sample, itertools.chain(sample, rest), stream, buffered)


def _read_ahead(
    items: Iterator[dict[str, Any]], count: int
) -> tuple[list[dict[str, Any]], UnreadableError | None]:
    """The first `count` records; a file cut short after some keeps them (its problem is
    raised once they are read); one that is not JSON at all raises at once."""
    sample: list[dict[str, Any]] = []
    try:
        sample.extend(itertools.islice(items, count))
    except UnreadableError as exc:
        if not sample:
            raise
        return sample, exc
    return sample, None


def _raise(problem: UnreadableError) -> Iterator[dict[str, Any]]:
    raise problem
    yield  # a generator: raises when read


def _first_byte(stream: Buffered) -> bytes:
    """The first byte that is not white space (or a byte-order mark), left unread."""
    while True:
        ahead = stream.peek(64)
        if not ahead:
            return b""
        stripped = ahead.lstrip(b" \t\r\n\xef\xbb\xbf")
        if stripped:
            stream.read(len(ahead) - len(stripped))
            return stripped[:1]
        stream.read(len(ahead))


def _array(stream: Buffered, name: str) -> Iterator[dict[str, Any]]:
    count = 0
    try:
        for item in ijson.items(stream, "item", use_float=True):
            count += 1
            if isinstance(item, dict):
                yield item
    except ijson.JSONError as exc:
        raise UnreadableError(_cut(name, count, exc)) from None


def _object(stream: Buffered, name: str) -> Iterator[dict[str, Any]]:
    try:
        for item in ijson.items(stream, "", use_float=True):
            if isinstance(item, dict):
                yield item
    except ijson.JSONError as exc:
        raise UnreadableError(f"{name} is not JSON ({exc})") from None


def _cut(name: str, count: int, exc: Exception) -> str:
    if count == 0:
        return f"{name} is not JSON ({exc})"
    return f"{name} stops being JSON after its first {count} entries (cut short?): {exc}"


def _lines(stream: Buffered, name: str, tally: Tally) -> Iterator[dict[str, Any]]:
    """Each line's object; a line that is not JSON is skipped with a notice (the last one is
    often an app still writing it)."""
    bad: list[int] = []
    number = 0
    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            bad.append(number)
            continue
        if isinstance(record, dict):
            yield record
    _tell_bad_lines(bad, number, name, tally)


def _tell_bad_lines(bad: list[int], last: int, name: str, tally: Tally) -> None:
    if bad and bad[-1] == last:
        tally.notice(f"{name}: the last line is cut short (written while the app ran?): skipped")
        bad = bad[:-1]
    if bad:
        shown = ", ".join(str(n) for n in bad[:5]) + (", ..." if len(bad) > 5 else "")
        tally.notice(f"{name}: {len(bad)} lines are not JSON (line {shown}): skipped")

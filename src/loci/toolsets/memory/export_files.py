"""Export documents as files: written and read a memory at a time.

`loci export` writes the document's header fields on the first line, then one memory per line
(compact JSON, lines joined by `,`), then `]}` on a line of its own. It is one JSON document,
and its layout lets `loci import` read it a line at a time: with vectors, 100k memories made an
851 MB file, which read whole took 3.4 GB of memory at its peak (154 MB a line at a time). Any
other JSON document (`export_memories` output saved by hand, a pretty-printed file) is read
whole.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from loci.errors import InvalidInputError
from loci.toolsets.memory.models import ExportedMemory

#: What ends the first line of a streamed export: the header's fields, then the list opens.
LIST_OPENS = ', "memories": ['
#: The last line of a streamed export.
DOCUMENT_ENDS = "]}"
#: The longest line of a streamed export (a memory's 64 KiB of text escaped, its metadata and
#: vector take far less).
LINE_MAX = 16 * 1024 * 1024
#: The largest document read whole (reading takes about four times its size in memory).
WHOLE_MAX = 256 * 1024 * 1024
#: Bytes read at a time when copying a pipe or device before an import.
SPOOL_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class UnreadableItem:
    """A line of an export that is not one memory as JSON; imported as a failed item."""

    message: str


@dataclass(frozen=True)
class ExportContent:
    """An export's fields other than `memories`, its memories as they are read, and how many."""

    header: Mapping[str, Any]
    memories: Iterable[Any]
    count: int


def dumps_export_line(memory: ExportedMemory) -> str:
    """One memory as compact JSON. A vector's numbers are written as float32's shortest
    decimals: the stored values exactly, in about half the characters of a double's."""
    fields = memory.model_dump(exclude={"vector"})
    line = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))[:-1]
    if memory.vector is None:
        return line + ',"vector":null}'
    numbers = ",".join(np.asarray(memory.vector, dtype=np.float32).astype(str).tolist())
    return f'{line},"vector":[{numbers}]}}'


def write_export(
    out: IO[str], header: Mapping[str, Any], memories: Iterable[ExportedMemory]
) -> int:
    """Write an export document a memory per line; returns how many were written."""
    out.write(json.dumps(header, ensure_ascii=False)[:-1] + LIST_OPENS + "\n")
    count = 0
    for memory in memories:
        out.write((",\n" if count else "") + dumps_export_line(memory))
        count += 1
    out.write("\n" + DOCUMENT_ENDS + "\n")
    return count


def document_parts(document: Any) -> ExportContent:
    """The parts of an export document held in memory (or of the `export_memories` result
    around one)."""
    if not isinstance(document, Mapping):
        raise InvalidInputError("import data must be a JSON object (an export)", field="data")
    inner = document.get("export")
    if isinstance(inner, Mapping):
        document = inner
    memories = document.get("memories")
    if not isinstance(memories, list):
        raise InvalidInputError("import data needs a 'memories' list", field="data")
    return ExportContent(document, memories, len(memories))


def read_export(path: Path, max_bytes: int) -> ExportContent:
    """An export file's parts: streamed when `loci export` wrote it, else read whole.

    A file over `max_bytes` (or a device or pipe that gives more), a line of a streamed export
    over LINE_MAX and a document read whole over WHOLE_MAX are refused with a clear error,
    before anything is imported. A pipe or device can be read only once: it is copied to a
    private temporary file first, which goes once its memories have been read.
    """
    if path.exists() and not path.is_file():
        copy = _spooled(path, max_bytes)
        try:
            content = _read_file(copy, max_bytes)
        except BaseException:
            copy.unlink(missing_ok=True)
            raise
        return ExportContent(content.header, _then_removed(content.memories, copy), content.count)
    return _read_file(path, max_bytes)


def _spooled(path: Path, max_bytes: int) -> Path:
    """A private copy of what a pipe or device gives, refused at its first bytes unless it
    opens as a JSON object, and once it passes `max_bytes`."""
    handle, name = tempfile.mkstemp(prefix="loci-import-", suffix=".json")
    copy = Path(name)
    try:
        with path.open("rb") as source, os.fdopen(handle, "wb") as target:
            chunk = source.read(SPOOL_CHUNK)
            if not chunk.lstrip().startswith(b"{"):
                raise InvalidInputError(
                    f"{path} is not a loci export: it does not start as a JSON object",
                    path=str(path),
                )
            written = 0
            while chunk:
                written += len(chunk)
                if written > max_bytes:
                    raise _too_large(path, max_bytes)
                target.write(chunk)
                chunk = source.read(SPOOL_CHUNK)
    except OSError as exc:
        copy.unlink(missing_ok=True)
        raise InvalidInputError(f"cannot read {path}: {exc}", path=str(path)) from exc
    except BaseException:
        copy.unlink(missing_ok=True)
        raise
    return copy


def _then_removed(memories: Iterable[Any], copy: Path) -> Iterator[Any]:
    try:
        yield from memories
    finally:
        copy.unlink(missing_ok=True)


def _read_file(path: Path, max_bytes: int) -> ExportContent:
    try:
        if path.is_file() and path.stat().st_size > max_bytes:
            raise _too_large(path, max_bytes)
        header = _streamed_header(path)
        if header is None:
            return document_parts(json.loads(_read_whole(path, max_bytes)))
        count = _count_memory_lines(path, max_bytes)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path} as JSON: {exc}", path=str(path)) from exc
    return ExportContent(header, _memory_lines(path, max_bytes), count)


def _too_large(path: Path, max_bytes: int) -> InvalidInputError:
    return InvalidInputError(
        f"{path} holds more than the import limit of {max_bytes:,} bytes "
        "(LOCI_IMPORT_MAX_BYTES); nothing was imported",
        path=str(path),
        limit=max_bytes,
    )


def _streamed_header(path: Path) -> dict[str, Any] | None:
    """The header fields if the file starts as `loci export` writes it, else None."""
    with path.open("rb") as file:
        first = file.readline(LINE_MAX).decode("utf-8").rstrip("\n")
    if not (first.startswith("{") and first.endswith(LIST_OPENS)):
        return None
    try:
        header = json.loads(first[: -len(LIST_OPENS)] + "}")
    except json.JSONDecodeError:
        return None
    return header if isinstance(header, dict) else None


def _read_whole(path: Path, max_bytes: int) -> bytes:
    """A JSON document that is not a streamed export, read whole: it must open as an object
    (so that a device of endless zeros is refused at its first bytes) and fit the limits."""
    limit = min(max_bytes, WHOLE_MAX)
    with path.open("rb") as file:
        start = file.read(4096)
        if not start.lstrip().startswith(b"{"):
            raise InvalidInputError(
                f"{path} is not a loci export: it does not start as a JSON object",
                path=str(path),
            )
        data = start + file.read(limit + 1 - len(start))
    if len(data) > limit:
        if limit == max_bytes:
            raise _too_large(path, max_bytes)
        raise InvalidInputError(
            f"{path} is a JSON document of more than {WHOLE_MAX:,} bytes, which would be read "
            "whole; write it with `loci export` instead, which `loci import` reads a line at "
            "a time",
            path=str(path),
            limit=WHOLE_MAX,
        )
    return data


def _lines(file: IO[bytes], path: Path, max_bytes: int) -> Iterator[tuple[int, bytes]]:
    """The lines after the header, numbered from 2, within LINE_MAX each and `max_bytes` in
    all (the header included)."""
    total = len(file.readline(LINE_MAX + 1))
    number = 1
    while line := file.readline(LINE_MAX + 1):
        number += 1
        total += len(line)
        if total > max_bytes:
            raise _too_large(path, max_bytes)
        if len(line) > LINE_MAX:
            raise InvalidInputError(
                f"line {number} of {path} is longer than {LINE_MAX:,} bytes: not a memory "
                "of a loci export; nothing was imported",
                path=str(path),
                line=number,
            )
        yield number, line


def _count_memory_lines(path: Path, max_bytes: int) -> int:
    """How many memory lines follow the header; refuses a file cut short (before anything is
    imported, so that a partial copy of a backup changes nothing)."""
    count, last = 0, b""
    with path.open("rb") as file:
        for _, line in _lines(file, path, max_bytes):
            if line.strip():
                count += 1
                last = line.strip()
    if last != DOCUMENT_ENDS.encode():
        raise InvalidInputError(
            f"{path} ends before its closing {DOCUMENT_ENDS!r}: the file is cut short; "
            "nothing was imported",
            path=str(path),
        )
    return count - 1


def _memory_lines(path: Path, max_bytes: int) -> Iterator[Any]:
    """Each memory line parsed, or an UnreadableItem naming the line. Lines are decoded one
    by one, so that a damaged one fails alone."""
    with path.open("rb") as file:
        for number, line in _lines(file, path, max_bytes):
            text = line.strip()
            if not text or text == DOCUMENT_ENDS.encode():
                continue
            try:
                yield json.loads(text.removesuffix(b",").decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                yield UnreadableItem(f"line {number} is not one memory as JSON: {exc}")

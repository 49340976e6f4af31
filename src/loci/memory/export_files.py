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
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from loci.errors import InvalidInputError
from loci.memory.models import ExportedMemory

#: What ends the first line of a streamed export: the header's fields, then the list opens.
LIST_OPENS = ', "memories": ['
#: The last line of a streamed export.
DOCUMENT_ENDS = "]}"


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


def read_export(path: Path) -> ExportContent:
    """An export file's parts: streamed when `loci export` wrote it, else read whole."""
    try:
        header = _streamed_header(path)
        if header is None:
            return document_parts(json.loads(path.read_text(encoding="utf-8")))
        count = _count_memory_lines(path)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path} as JSON: {exc}", path=str(path)) from exc
    return ExportContent(header, _memory_lines(path), count)


def _streamed_header(path: Path) -> dict[str, Any] | None:
    """The header fields if the file starts as `loci export` writes it, else None."""
    with path.open("rb") as file:
        first = file.readline().decode("utf-8").rstrip("\n")
    if not (first.startswith("{") and first.endswith(LIST_OPENS)):
        return None
    try:
        header = json.loads(first[: -len(LIST_OPENS)] + "}")
    except json.JSONDecodeError:
        return None
    return header if isinstance(header, dict) else None


def _count_memory_lines(path: Path) -> int:
    """How many memory lines follow the header; refuses a file cut short (before anything is
    imported, so that a partial copy of a backup changes nothing)."""
    count, last = 0, b""
    with path.open("rb") as file:
        file.readline()
        for line in file:
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


def _memory_lines(path: Path) -> Iterator[Any]:
    """Each memory line parsed, or an UnreadableItem naming the line. Lines are decoded one
    by one, so that a damaged one fails alone."""
    with path.open("rb") as file:
        file.readline()
        for number, line in enumerate(file, start=2):
            text = line.strip()
            if not text or text == DOCUMENT_ENDS.encode():
                continue
            try:
                yield json.loads(text.removesuffix(b",").decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                yield UnreadableItem(f"line {number} is not one memory as JSON: {exc}")

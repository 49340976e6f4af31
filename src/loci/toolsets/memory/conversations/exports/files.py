"""The files of a chat export: a zip as downloaded (read in place, never unpacked to disk), a
folder (a Claude Code projects folder, say), one file, or text sent over MCP."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from loci.errors import InvalidInputError
from loci.wording import size_text

SUFFIXES = (".json", ".jsonl")
ZIP_MAGIC = b"PK\x03\x04"
SETTING = "import_max_bytes (LOCI_IMPORT_MAX_BYTES)"


class CountingReader(io.RawIOBase):
    """A binary stream that counts the bytes read through it (the progress of a file)."""

    def __init__(self, inner: IO[bytes]) -> None:
        self._inner = inner
        self.done = 0

    def readable(self) -> bool:
        """It is."""
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        """Fill `buffer` from the inner stream, counting."""
        data = self._inner.read(len(buffer))
        buffer[: len(data)] = data
        self.done += len(data)
        return len(data)

    def close(self) -> None:
        """Close the inner stream too."""
        self._inner.close()
        super().close()


@dataclass(frozen=True)
class ExportFile:
    """One file of an export, opened only when read."""

    name: str  # as shown to the person: a path, or `export.zip:conversations.json`
    size: int  # uncompressed bytes
    opener: Callable[[], IO[bytes]]

    @property
    def lines(self) -> bool:
        """Whether it holds JSON lines (else one JSON document)."""
        return self.name.lower().endswith(".jsonl")

    def open(self) -> CountingReader:
        """The file's bytes, counted as they are read."""
        return CountingReader(self.opener())

    @classmethod
    def of_text(cls, name: str, text: str) -> ExportFile:
        """A file sent as text (over MCP): JSON lines when its first line is a JSON object of
        its own and more lines follow (or it says its `type`, as log lines do), else one
        JSON document."""
        data = text.encode("utf-8", "surrogatepass")
        suffix = ".jsonl" if _json_lines(text) else ".json"
        return cls(f"{name}{suffix}", len(data), lambda: io.BytesIO(data))


def _json_lines(text: str) -> bool:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    try:
        first = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        return False
    return isinstance(first, dict) and (len(lines) > 1 or "type" in first)


@contextmanager
def export_files(path: Path, max_bytes: int) -> Iterator[list[ExportFile]]:
    """The JSON and JSONL files at `path`, a zip's kept open while they are read.

    Raises InvalidInputError for a path that is none of these, a zip that is cut short, or a
    file larger than `max_bytes` (the setting named), before anything is read.
    """
    path = path.expanduser()
    if path.is_dir():
        files = _folder_files(path)
        _check_sizes(files, max_bytes)
        yield files
    elif zipfile.is_zipfile(path):
        with _open_zip(path) as archive:
            files = _zip_files(path, archive)
            _check_sizes(files, max_bytes)
            yield files
    elif path.is_file():
        with path.open("rb") as start:
            _refuse_cut_zip(str(path), start.read(4))
        files = [ExportFile(str(path), path.stat().st_size, lambda: path.open("rb"))]
        _check_sizes(files, max_bytes)
        yield files
    else:
        raise InvalidInputError(f"{path} does not exist", path=str(path))


@contextmanager
def uploaded_files(name: str, data: bytes, max_bytes: int) -> Iterator[list[ExportFile]]:
    """The files of an export uploaded as `data` (a zip, or one JSON or JSONL file named
    `name`), read from memory."""
    if zipfile.is_zipfile(io.BytesIO(data)):
        with _open_zip_bytes(name, data) as archive:
            files = _zip_files(Path(name), archive)
            _check_sizes(files, max_bytes)
            yield files
    else:
        _refuse_cut_zip(name, data[:4])
        yield [ExportFile(name, len(data), lambda: io.BytesIO(data))]


@contextmanager
def _open_zip_bytes(name: str, data: bytes) -> Iterator[zipfile.ZipFile]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise InvalidInputError(f"{name} is not a whole zip file: {exc}", path=name) from None
    with archive:
        yield archive


def _refuse_cut_zip(name: str, start: bytes) -> None:
    """A file that starts as a zip but has no directory at its end was cut short."""
    if start == ZIP_MAGIC or name.lower().endswith(".zip"):
        raise InvalidInputError(
            f"{name} is not a whole zip file (a download cut short?): download the export again",
            path=name,
        )


def _folder_files(folder: Path) -> list[ExportFile]:
    found = sorted(
        p
        for p in folder.rglob("*")
        if p.suffix.lower() in SUFFIXES and p.is_file() and not _hidden(p.relative_to(folder))
    )
    return [ExportFile(str(p), p.stat().st_size, _opener(p)) for p in found]


def _opener(path: Path) -> Callable[[], IO[bytes]]:
    return lambda: path.open("rb")


def _hidden(relative: Path) -> bool:
    """Dot-files and macOS's `__MACOSX` copies are not part of an export."""
    return any(part.startswith((".", "__MACOSX")) for part in relative.parts)


@contextmanager
def _open_zip(path: Path) -> Iterator[zipfile.ZipFile]:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InvalidInputError(
            f"{path} is not a whole zip file (a download cut short?): {exc}", path=str(path)
        ) from None
    with archive:
        yield archive


def _zip_files(path: Path, archive: zipfile.ZipFile) -> list[ExportFile]:
    members = sorted(
        (info for info in archive.infolist() if not info.is_dir()), key=lambda i: i.filename
    )
    return [
        ExportFile(f"{path.name}:{info.filename}", info.file_size, _member(archive, info))
        for info in members
        if Path(info.filename).suffix.lower() in SUFFIXES and not _hidden(Path(info.filename))
    ]


def _member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Callable[[], IO[bytes]]:
    return lambda: archive.open(info)


def _check_sizes(files: list[ExportFile], max_bytes: int) -> None:
    for file in files:
        if file.size > max_bytes:
            raise InvalidInputError(
                f"{file.name} is {size_text(file.size)}, more than {SETTING} allows "
                f"({size_text(max_bytes)}); raise the setting to import it",
                path=file.name,
                size_bytes=file.size,
                max_bytes=max_bytes,
            )

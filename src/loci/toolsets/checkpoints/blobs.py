"""Checkpoint payloads, named by the SHA-256 of their bytes and checked on every read.

On SQLite they are files, `<folder>/<first two hex>/<sha256>.blob`; on PostgreSQL, rows of a
table (`blob_table.py`), so that every server of the database reads them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from loci.errors import CheckpointCorruptedError, CheckpointStorageError
from loci.storage.files import atomic_write, refuse_links

_DIGEST = re.compile(r"^[0-9a-f]{64}\Z")


def digest_of(data: bytes) -> str:
    """The name of a blob: the SHA-256 of its bytes, in lower-case hex."""
    return hashlib.sha256(data).hexdigest()


def check_digest(digest: str) -> None:
    """Refuse anything but a SHA-256 in lower-case hex (a digest becomes a file name)."""
    if not _DIGEST.match(digest):
        raise CheckpointCorruptedError(f"bad blob digest {digest!r}")


class Blobs(Protocol):
    """Where checkpoint payloads are kept."""

    def put(self, data: bytes) -> str:
        """Store `data` (a blob with the same bytes is kept) and return its digest."""
        ...

    def get(self, digest: str, checkpoint_id: str) -> bytes:
        """The blob's bytes, after checking they still hash to `digest`."""
        ...

    def delete(self, digest: str) -> int:
        """Remove a blob; returns the bytes freed (0 if it was already gone)."""
        ...

    def unreferenced(self, referenced: set[str], older_than: float) -> list[str]:
        """Blobs outside `referenced` written before `older_than` (a Unix time)."""
        ...

    def remove_leftovers(self, older_than: float) -> tuple[int, int]:
        """Remove what unfinished writes left before `older_than`: (how many, bytes)."""
        ...


class BlobStore:
    """Immutable blob files named by the SHA-256 of their bytes."""

    def __init__(self, folder: Path, root: Path) -> None:
        self.folder = folder
        self._root = root  # the data folder: no folder between it and a blob may be a link

    def put(self, data: bytes) -> str:
        """Store `data` (atomically; a blob with the same bytes is kept) and return its digest."""
        digest = digest_of(data)
        path = self._path(digest)
        if path.exists():
            return digest
        try:
            # The folder is not fsync'd: a blob is as durable as the SQLite row that follows
            # it (WAL, synchronous=NORMAL). A power cut may lose the last saves; it cannot
            # damage earlier ones, and a row whose blob did not survive reads as corrupted.
            atomic_write(path, data, sync_folder=False, root=self._root)  # makes the folders too
        except OSError as exc:
            raise CheckpointStorageError(
                f"cannot write checkpoint blob {path}: {exc}", path=str(path)
            ) from exc
        return digest

    def get(self, digest: str, checkpoint_id: str) -> bytes:
        """The blob's bytes, after checking they still hash to `digest`."""
        path = self._path(digest)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise CheckpointCorruptedError(
                f"checkpoint {checkpoint_id}: its blob {path.name} is missing",
                checkpoint_id=checkpoint_id,
                path=str(path),
            ) from None
        except OSError as exc:
            raise CheckpointStorageError(
                f"cannot read checkpoint blob {path}: {exc}", path=str(path)
            ) from exc
        if digest_of(data) != digest:
            raise CheckpointCorruptedError(
                f"checkpoint {checkpoint_id}: its blob {path.name} fails its SHA-256 check "
                "(the file was changed or damaged)",
                checkpoint_id=checkpoint_id,
                path=str(path),
            )
        return data

    def delete(self, digest: str) -> int:
        """Remove a blob; returns the bytes freed (0 if it was already gone, or could never
        have been written: a file stands where its folder should be)."""
        path = self._path(digest)
        try:
            size = path.stat().st_size
            path.unlink()
        except (FileNotFoundError, NotADirectoryError):
            return 0
        return size

    def digests(self) -> Iterator[str]:
        """Every blob on disk."""
        if not self._real_folder():
            return
        for path in self.folder.glob("*/*.blob"):
            if _DIGEST.match(path.stem):
                yield path.stem

    def leftovers(self) -> Iterator[Path]:
        """Temporary files of writes that never finished."""
        if self._real_folder():
            yield from self.folder.glob("*/.*.tmp")

    def unreferenced(self, referenced: set[str], older_than: float) -> list[str]:
        """Blob files outside `referenced` last written before `older_than`."""
        return [
            digest
            for digest in list(self.digests())
            if digest not in referenced and self._path(digest).stat().st_mtime < older_than
        ]

    def remove_leftovers(self, older_than: float) -> tuple[int, int]:
        """Remove temporary files older than `older_than`: (how many, bytes)."""
        count, size = 0, 0
        for leftover in list(self.leftovers()):
            if leftover.stat().st_mtime < older_than:
                size += leftover.stat().st_size
                leftover.unlink(missing_ok=True)
                count += 1
        return count, size

    def _path(self, digest: str) -> Path:
        check_digest(digest)
        path = self.folder / digest[:2] / f"{digest}.blob"
        refuse_links(path.parent, self._root, CheckpointStorageError)
        return path

    def _real_folder(self) -> bool:
        refuse_links(self.folder, self._root, CheckpointStorageError)
        return self.folder.is_dir()

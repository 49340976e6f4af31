"""Files a person may open: written atomically, private to the user."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from loci.errors import StorageUnavailableError
from loci.stores.db import PRIVATE_DIR_MODE


def private_folder(path: Path) -> Path:
    """Create `path` (and parents) readable by the user only; return it."""
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR_MODE)
    return path


@contextlib.contextmanager
def storage_errors(path: Path, action: str, outcome: str = "") -> Iterator[None]:
    """Raise an OSError met inside (a full disk, a read-only folder) as a storage error that
    says what could not be done to `path` (and `outcome`, what that left)."""
    try:
        yield
    except BrokenPipeError:
        raise  # a reader that closed a pipe early: the caller's to handle (click exits quietly)
    except OSError as exc:
        after = f"; {outcome}" if outcome else ""
        raise StorageUnavailableError(
            f"cannot {action} {path}: {exc.strerror or exc}{after}", path=str(path)
        ) from exc


def atomic_write(path: Path, data: bytes, sync_folder: bool = True) -> None:
    """Replace `path` with `data` so that a reader sees the old file or the new, never half.

    The bytes go to a temporary file in the same folder, are fsync'd, and the file is renamed
    over the target; with `sync_folder` the folder is fsync'd too, so that the rename itself
    survives a power cut.
    """
    private_folder(path.parent)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)  # mkstemp made it 0600 already
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    if sync_folder:
        _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not every platform can open a folder (Windows): the rename still happened
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)

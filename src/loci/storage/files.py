"""Files a person may open: written atomically, private to the user."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

from loci.errors import StorageUnavailableError

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def private_folder(path: Path, root: Path | None = None) -> Path:
    """Create `path` and each missing folder above it readable by the user only; return it.

    With `root` (the data folder), `path` lies inside it and no folder below `root` may be a
    symbolic link: following one would put loci's files outside the data folder.
    """
    if root is not None:
        refuse_links(path, root)
    missing: list[Path] = []
    folder = path
    while not os.path.lexists(folder) and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):  # `mkdir(parents=True)` gives the parents default modes
        with contextlib.suppress(FileExistsError):  # another process was quicker
            folder.mkdir(mode=PRIVATE_DIR_MODE)
    if not path.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path))
    return path


def refuse_links(
    path: Path, root: Path, error: type[StorageUnavailableError] = StorageUnavailableError
) -> None:
    """Raise `error` when a folder between `root` and `path` (inside it) is a symbolic link;
    `root` itself may be one."""
    folder = root
    for part in path.relative_to(root).parts:
        folder = folder / part
        if folder.is_symlink():
            raise error(
                f"{folder} is a symbolic link; loci keeps its files inside its data folder "
                f"{root} and does not follow links there (move the folder it points to back "
                "in its place)",
                path=str(folder),
            )


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


def atomic_write(
    path: Path, data: bytes, sync_folder: bool = True, root: Path | None = None
) -> None:
    """Replace `path` with `data` so that a reader sees the old file or the new, never half.

    The bytes go to a temporary file in the same folder, are fsync'd, and the file is renamed
    over the target; with `sync_folder` the folder is fsync'd too, so that the rename itself
    survives a power cut. The file is private to the user (0600); `root` as in
    `private_folder`.
    """
    private_folder(path.parent, root)
    with replacing(path) as out:
        out.write(data)
    if sync_folder:
        _sync_folder(path.parent)


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[BinaryIO]:
    """A new private file (0600) that replaces `path` once the block ends without an error;
    on an error, `path` is left as it was."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)  # mkstemp made it 0600 already
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def replacing_text(path: Path) -> Iterator[TextIO]:
    """`replacing` for UTF-8 text."""
    with replacing(path) as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8")
        try:
            yield text
        finally:
            text.detach()  # flushes; `replacing` closes the file


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

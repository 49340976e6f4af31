"""Files in the data folder that the database has no record of.

A database emptied (truncated to 0 bytes, say) or replaced by a fresh one opens as an empty
store without complaint, while the checkpoint blobs and project files written beside the old
one are still there: that is what is looked for here, so it does not go unnoticed.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from loci.storage.db import Database

ADVICE = (
    "the database was emptied or replaced since they were written; stop loci and put back "
    "a backup of loci.db (README: Troubleshooting)"
)


def orphaned_files(db: Database, home: Path) -> list[str]:
    """One sentence per kind of file that the database has no record of at all."""
    with db.snapshot() as conn:
        has_checkpoints = conn.execute("SELECT 1 FROM checkpoints LIMIT 1").fetchone()
        has_projects = conn.execute("SELECT 1 FROM context_projects LIMIT 1").fetchone()
    found: list[str] = []
    if not has_checkpoints:
        blobs = home / "checkpoints" / "blobs"
        count = _count(blobs.glob("*/*.blob")) if blobs.is_dir() else 0
        if count:
            found.append(
                f"the database holds no checkpoints, but {blobs} holds {count} checkpoint "
                f"file(s): {ADVICE}"
            )
    if not has_projects:
        projects = home / "projects"
        count = _count(p for p in projects.iterdir() if p.is_dir()) if projects.is_dir() else 0
        if count:
            found.append(
                f"the database holds no context projects, but {projects} holds {count} "
                f"project folder(s): {ADVICE}"
            )
    return found


def _count(paths: Iterable[Path]) -> int:
    return sum(1 for _ in paths)

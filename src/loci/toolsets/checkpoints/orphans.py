"""Checkpoint files in the data folder that the database has no record of.

A database emptied (truncated to 0 bytes, say) or replaced by a fresh one opens as an empty
store without complaint, while the checkpoint blobs written beside the old one are still
there: that is what is looked for here, so it does not go unnoticed.
"""

from __future__ import annotations

from pathlib import Path

from loci.storage.databases.db import Database
from loci.toolsets.toolset import ORPHAN_ADVICE


def orphaned_files(db: Database, home: Path) -> list[str]:
    """A sentence naming the checkpoint files, when the database holds no checkpoint."""
    with db.snapshot() as conn:
        if conn.execute("SELECT 1 FROM checkpoints LIMIT 1").fetchone():
            return []
    blobs = home / "checkpoints" / "blobs"
    count = sum(1 for _ in blobs.glob("*/*.blob")) if blobs.is_dir() else 0
    if not count:
        return []
    return [
        f"the database holds no checkpoints, but {blobs} holds {count} checkpoint file(s): "
        f"{ORPHAN_ADVICE}"
    ]

"""Project folders in the data folder that the database has no record of.

A database emptied (truncated to 0 bytes, say) or replaced by a fresh one opens as an empty
store without complaint, while the project files written beside the old one are still there:
that is what is looked for here, so it does not go unnoticed.
"""

from __future__ import annotations

from pathlib import Path

from loci.storage.databases.db import Database
from loci.toolsets.toolset import ORPHAN_ADVICE


def orphaned_files(db: Database, home: Path) -> list[str]:
    """A sentence naming the project folders, when the database holds no project."""
    with db.snapshot() as conn:
        if conn.execute("SELECT 1 FROM context_projects LIMIT 1").fetchone():
            return []
    projects = home / "projects"
    count = sum(1 for p in projects.iterdir() if p.is_dir()) if projects.is_dir() else 0
    if not count:
        return []
    return [
        f"the database holds no context projects, but {projects} holds {count} project "
        f"folder(s): {ORPHAN_ADVICE}"
    ]

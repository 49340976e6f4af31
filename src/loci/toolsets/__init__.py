"""The toolsets loci serves, in the order their tables migrate and their tools are listed.

Each toolset is a folder here whose `__init__` declares a `Toolset`; adding one is its folder
and its name in `NAMES`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from loci.toolsets.toolset import Toolset

if TYPE_CHECKING:
    from pathlib import Path

    from loci.storage.databases.db import Database

NAMES = ("memory", "context", "checkpoints", "story")


def _declared(name: str) -> Toolset:
    """The declaration in `loci/toolsets/<name>/__init__.py`."""
    found = import_module(f"loci.toolsets.{name}").TOOLSET
    if not isinstance(found, Toolset):
        raise TypeError(f"loci.toolsets.{name}.TOOLSET is not a Toolset")
    return found


TOOLSETS: tuple[Toolset, ...] = tuple(_declared(name) for name in NAMES)


def orphaned_files(db: Database, home: Path) -> list[str]:
    """One sentence per kind of file in the data folder that `db` has no record of at all
    (a database emptied or replaced since they were written), from every toolset."""
    return [line for toolset in TOOLSETS for line in toolset.orphaned_files(db, home)]


#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["NAMES", "TOOLSETS", "Toolset", "orphaned_files", "toolset"]

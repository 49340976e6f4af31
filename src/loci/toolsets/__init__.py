"""The toolsets loci serves, in the order their tables migrate and their tools are listed.

Each toolset is a folder here whose `__init__` declares a `Toolset`; adding one is its folder
and its name in `NAMES`.
"""

from __future__ import annotations

from importlib import import_module

from loci.toolsets.toolset import Toolset

NAMES = ("memory", "context", "checkpoints", "story")


def _declared(name: str) -> Toolset:
    """The declaration in `loci/toolsets/<name>/__init__.py`."""
    found = import_module(f"loci.toolsets.{name}").TOOLSET
    if not isinstance(found, Toolset):
        raise TypeError(f"loci.toolsets.{name}.TOOLSET is not a Toolset")
    return found


TOOLSETS: tuple[Toolset, ...] = tuple(_declared(name) for name in NAMES)

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["NAMES", "TOOLSETS", "Toolset", "toolset"]

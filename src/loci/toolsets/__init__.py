"""The toolsets loci serves, in the order their tables migrate and their tools are listed.

Each toolset is a folder here whose `__init__` declares a `Toolset`; adding one is its folder
and one line in `TOOLSETS`.
"""

from __future__ import annotations

from loci.toolsets import checkpoints, context, memory, story
from loci.toolsets.toolset import Toolset

TOOLSETS: tuple[Toolset, ...] = (
    memory.TOOLSET,
    context.TOOLSET,
    checkpoints.TOOLSET,
    story.TOOLSET,
)

__all__ = ["TOOLSETS", "Toolset"]

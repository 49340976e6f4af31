"""The story toolset: a virtual infinite context for long writing sessions (a token-budgeted
window, a relief valve into an archive, the cast, places and plot threads)."""

from loci.toolsets.toolset import Toolset

TOOLSET = Toolset(
    name="story",
    summary="a virtual infinite context for novels: window, archive, cast, places, threads",
    build="loci.toolsets.story.wiring:build",
    schema="loci.toolsets.story.schema:STORY_SCHEMA",
    mcp=("loci.toolsets.story.tools",),
    commands=("loci.toolsets.story.commands",),
    doctor="loci.toolsets.story.commands:doctor",
    pages=("loci.toolsets.story.pages",),
)

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = [
    "TOOLSET",
    "assembly",
    "curation",
    "entity",
    "graph",
    "lookup",
    "manuscript",
    "mentions",
    "models",
    "passage_keywords",
    "service",
    "store",
    "suggestions",
]

"""The memory toolset: remember, recall, navigate (journeys, wandering, regions, the map),
conversations, and keeping memory healthy (reinforce, decay, consolidate, extract)."""

from loci.toolsets.toolset import Toolset

TOOLSET = Toolset(
    name="memory",
    summary="semantic memory: remember, recall (meaning + keywords), navigate, keep healthy",
    build="loci.toolsets.memory.wiring:build",
    mcp=(
        "loci.toolsets.memory.prompts",
        "loci.toolsets.memory.tools",
        "loci.toolsets.memory.conversations.tools",
        "loci.toolsets.memory.conversations.chat_import_tools",
        "loci.toolsets.memory.spatial.tools",
        "loci.toolsets.memory.lifecycle.tools",
        "loci.toolsets.memory.facts.tools",
    ),
    commands=(
        "loci.toolsets.memory.commands",
        "loci.toolsets.memory.spatial.commands",
        "loci.toolsets.memory.conversations.commands",
        "loci.toolsets.memory.conversations.chat_import_commands",
        "loci.toolsets.memory.lifecycle.commands",
        "loci.toolsets.memory.facts.commands",
    ),
    completions=(("namespace", "loci.toolsets.memory.tools:namespace_names"),),
    pages=(
        "loci.toolsets.memory.pages",
        "loci.toolsets.memory.spatial.map_page",
        "loci.toolsets.memory.transfer_pages",
        "loci.toolsets.memory.conversations.chat_import_pages",
        "loci.toolsets.memory.facts.pages",
    ),
)

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = [
    "TOOLSET",
    "browsing",
    "catalog",
    "conversations",
    "editing",
    "export_files",
    "facts",
    "lifecycle",
    "models",
    "parts",
    "service",
    "spatial",
    "transfer",
]

"""The memory toolset's prompts: everyday requests a user picks from the client (slash
commands in many editors); `recall_about` reads what is remembered when it is rendered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver.prompts import Prompt
from pydantic import Field

from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings

#: How many memories `recall_about` puts in front of the agent.
RECALLED = 10

NamespaceArgument = Annotated[
    str, Field(description="Namespace to keep to (empty: all of them).", max_length=128)
]


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the memory toolset's prompts to `server`."""
    del settings
    server.add_prompt(Prompt.from_function(remember_this_session, title="Remember this session"))
    server.add_prompt(
        Prompt.from_function(_recall_about(provider), title="What do you remember about...")
    )


def remember_this_session(namespace: NamespaceArgument = "") -> str:
    """Store what this conversation taught you that is worth keeping."""
    where = f' in the namespace "{namespace}"' if namespace else ""
    return (
        "Look back over this conversation and store what is worth keeping beyond it with "
        f"loci's `remember_batch` tool{where}: the user's preferences, decisions and their "
        "reasons, facts about people and projects, problems solved and how, anything the user "
        "asked you to remember. One self-contained fact per memory, phrased so that it makes "
        "sense without this conversation, with a few tags and an importance (0.8 or more for "
        "what must not be forgotten, 0.3 for details). Before storing, `recall` each topic and "
        "skip what is already stored; if a stored memory is now wrong, `forget` it and store "
        "the correction. End with one line: how many memories you stored, and on what."
    )


def _recall_about(provider: AppProvider) -> Callable[..., str]:
    def recall_about(
        topic: Annotated[str, Field(description="What to recall.", min_length=1, max_length=2000)],
        namespace: NamespaceArgument = "",
    ) -> str:
        """What loci remembers about a topic, put in front of the agent."""
        counted = provider.records_access
        found = provider.call(
            lambda app: app.memory.recall(topic, RECALLED, namespace or None, record_access=counted)
        )
        if not found.memories:
            return f"loci has no memories about {topic!r} yet. Say so, then answer as best you can."
        lines = [
            f"- ({hit.created_at[:10]}, {hit.namespace}) {hit.content}" for hit in found.memories
        ]
        return (
            f"Here is what loci remembers about {topic!r}, best match first:\n\n"
            + "\n".join(lines)
            + "\n\nUse it to answer. Say which memories you relied on, and when one looks "
            "outdated or contradicts another, ask before relying on it."
        )

    return recall_about

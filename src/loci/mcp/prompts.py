"""Prompts: everyday requests a user picks from the client (slash commands in many editors).

Each prompt that needs stored data reads it when it is rendered (what is remembered about a
topic, a project's context files, a workflow's newest checkpoint), so the agent starts with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver.prompts import Prompt
from pydantic import Field

from loci.mcp.provider import AppProvider

#: How many memories `recall_about` puts in front of the agent.
RECALLED = 10

NamespaceArgument = Annotated[
    str, Field(description="Namespace to keep to (empty: all of them).", max_length=128)
]


def register(server: Any, provider: AppProvider, toolset: str) -> None:
    """Add the prompts of `toolset` to `server`."""
    prompts = {
        "memory": [
            (remember_this_session, "Remember this session"),
            (_recall_about(provider), "What do you remember about..."),
        ],
        "context": [(_review_project_context(provider), "Review project context")],
        "checkpoints": [(_resume_workflow(provider), "Resume a workflow")],
    }
    for function, title in prompts.get(toolset, []):
        server.add_prompt(Prompt.from_function(function, title=title))


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


def _review_project_context(provider: AppProvider) -> Callable[..., str]:
    def review_project_context(
        project_id: Annotated[str, Field(description="The project's id (init_project).")],
    ) -> str:
        """Check a project's context files against the project as it is now, and update them."""

        def read(app: Any) -> list[str]:
            names = [template.name for template in app.context.templates.listing().templates]
            return [
                _file_section(app.context.get_context(project_id, name, None)) for name in names
            ]

        sections = provider.call(read)
        return (
            f"Review the context files of project {project_id} against the project as it is "
            "now (read the code, its history and this conversation). For each file that is "
            "missing or out of date, write it with `update_context` (the whole document; when "
            "it answers correction_needed, apply every step of correction_guidance and send it "
            "again). Finish with the session summary.\n\n" + "\n\n".join(sections)
        )

    return review_project_context


def _file_section(file: Any) -> str:
    if not file.exists:
        return f"## {file.file_type}: not written yet; its template skeleton:\n\n{file.content}"
    return f"## {file.file_type} (version {file.version}, {file.updated_at}):\n\n{file.content}"


def _resume_workflow(provider: AppProvider) -> Callable[..., str]:
    def resume_workflow(
        session_id: Annotated[str, Field(description="The workflow's sessionId.")],
    ) -> str:
        """Carry on a long workflow from its newest checkpoint."""
        loaded = provider.call(lambda app: app.checkpoints.load(session_id=session_id))
        context = json.dumps(loaded.context, ensure_ascii=False, indent=2)
        return (
            f"Carry on workflow {session_id} from its newest checkpoint ({loaded.checkpoint_id}, "
            f"saved {loaded.created_at}). Restate the goal and the next step in two lines, then "
            "continue. Save a checkpoint with `workflow_checkpoint_save` (sessionId "
            f'"{session_id}") at each milestone.\n\n```json\n{context}\n```'
        )

    return resume_workflow

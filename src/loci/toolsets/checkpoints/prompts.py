"""The checkpoints toolset's prompt: resume a workflow from its newest checkpoint, read when
the prompt is rendered."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver.prompts import Prompt
from pydantic import Field

from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the checkpoints toolset's prompt to `server`."""
    del settings
    server.add_prompt(Prompt.from_function(_resume_workflow(provider), title="Resume a workflow"))


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

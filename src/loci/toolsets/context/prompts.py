"""The context toolset's prompt: review a project's context files, which it reads when it is
rendered so the agent starts with them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver.prompts import Prompt
from pydantic import Field

from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the context toolset's prompt to `server`."""
    del settings
    prompt = Prompt.from_function(_review_project_context(provider), title="Review project context")
    server.add_prompt(prompt)


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

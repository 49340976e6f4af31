"""The `context` toolset: projects' context files, checked against templates, with guidance."""

from typing import TYPE_CHECKING, Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from loci.faces.mcp.arguments import ADDITIVE, READ_ONLY
from loci.faces.mcp.idempotency import IdempotencyKey, keyed
from loci.faces.mcp.provider import AppProvider
from loci.faces.mcp.strict import byte_limited_text
from loci.fields import MAX_COUNT
from loci.settings import Settings
from loci.toolsets.context.models import (
    ContextFile,
    ContextHistory,
    ProjectInfo,
    ProjectList,
    TemplateList,
    UpdateResult,
)

if TYPE_CHECKING:
    from loci.app import App

NAME = r"^[A-Za-z0-9_-]{1,64}$"

ProjectId = Annotated[
    str,
    Field(pattern=NAME, max_length=64, description="The id init_project returned."),
]
FileType = Annotated[
    str,
    Field(
        pattern=NAME,
        max_length=64,
        description="Which file: mental_model, session_summary, bugs, features, or a user "
        "template's name (list_templates).",
    ),
]
IDEMPOTENT = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the context-file tools and the template resource to `server`."""
    Content = Annotated[  # noqa: N806 (a type alias built from the settings)
        str,
        byte_limited_text(settings.context_max_bytes),
        Field(description="The whole Markdown document."),
    ]

    def init_project(
        path: Annotated[
            str,
            Field(min_length=1, max_length=4096, description="The project's absolute path."),
        ],
        name: Annotated[
            str | None, Field(max_length=200, description="Display name (default: folder name).")
        ] = None,
    ) -> ProjectInfo:
        """Register a project and get its project_id (the same path always gives the same id).
        Call it at the start of work on a project, then read its files with get_context."""
        return provider.call(lambda app: app.context.init_project(path, name))

    def list_projects() -> ProjectList:
        """Registered projects with their context files, versions and last update."""
        return provider.call(lambda app: app.context.list_projects())

    def get_context(
        project_id: ProjectId,
        file_type: FileType,
        version: Annotated[
            int | None,
            Field(ge=1, le=MAX_COUNT, description="An earlier version (default: newest)."),
        ] = None,
    ) -> ContextFile:
        """Read a project's context file and what its template expects. If nothing is saved
        yet, `content` is the template skeleton to fill in (is_skeleton is true)."""
        return provider.call(lambda app: app.context.get_context(project_id, file_type, version))

    def update_context(
        project_id: ProjectId,
        file_type: FileType,
        content: Content,
        force: Annotated[
            bool,
            Field(
                description="Save even though it is invalid (recorded as forced). Use only "
                "after max_attempts_reached."
            ),
        ] = False,
        idempotency_key: IdempotencyKey | None = None,
    ) -> UpdateResult:
        """Save a context file after checking it against its template. status "success": saved
        as a new version (the old one stays in history). "correction_needed": NOT saved; apply
        correction_guidance (every step, in order) and call again with the whole document.
        "max_attempts_reached": still invalid after several tries; fix it or resend with
        force=true."""
        arguments = {"project_id": project_id, "file_type": file_type, "content": content}
        return keyed(
            provider,
            "update_context",
            idempotency_key,
            {**arguments, "force": force},
            UpdateResult,
            lambda app: app.context.update_context(project_id, file_type, content, force),
        )

    def context_history(
        project_id: ProjectId,
        file_type: FileType,
        limit: Annotated[int, Field(ge=1, le=1000, description="Most versions.")] = 50,
    ) -> ContextHistory:
        """The saved versions of a context file, newest first (read one with get_context)."""
        return provider.call(lambda app: app.context.history(project_id, file_type, limit))

    def list_templates() -> TemplateList:
        """The context-file templates: sections, formats and an example document each, plus
        any broken template files in the data folder."""
        return provider.call(lambda app: app.context.templates.listing())

    tools = [
        (init_project, "Register a project", IDEMPOTENT),
        (list_projects, "List projects", READ_ONLY),
        (get_context, "Read a context file", READ_ONLY),
        (update_context, "Update a context file", ADDITIVE),
        (context_history, "Context file history", READ_ONLY),
        (list_templates, "List context templates", READ_ONLY),
    ]
    for function, title, annotations in tools:
        server.add_tool(function, title=title, annotations=annotations, structured_output=True)
    _register_resources(server, provider)


def _register_resources(server: MCPServer, provider: AppProvider) -> None:
    @server.resource(
        "context://templates/{template}",
        name="context-template",
        title="Context file template",
        mime_type="application/json",
    )
    def template_resource(template: str) -> str:
        """A context-file template (sections, formats, example) as JSON."""
        from loci.toolsets.context.library import template_info

        return provider.read(
            lambda app: template_info(app.context.templates.get(template, "name")).model_dump_json()
        )

    @server.resource(
        "context://projects/{project_id}/{file_type}",
        name="context-file",
        title="Project context file",
        mime_type="text/markdown",
    )
    def file_resource(project_id: str, file_type: str) -> str:
        """A project's context file, newest version (its template skeleton until one is saved)."""
        return provider.read(lambda app: app.context.get_context(project_id, file_type).content)


def project_ids(app: "App") -> list[str]:
    """The projects' ids, offered where an argument is named `project_id`."""
    return [project.project_id for project in app.context.list_projects().projects]


def template_names(app: "App") -> list[str]:
    """The templates' names, offered for `file_type` and `template` arguments."""
    return [template.name for template in app.context.templates.listing().templates]

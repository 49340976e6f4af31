"""The `checkpoints` toolset: save a workflow's context, and load it in the next chat."""

# The spec's argument names are camelCase; the functions' parameters follow them.
# ruff: noqa: N803

from typing import TYPE_CHECKING, Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from loci.faces.mcp.arguments import READ_ONLY, Offset
from loci.faces.mcp.idempotency import IdempotencyKey, keyed
from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings
from loci.toolsets.checkpoints.models import (
    CheckpointList,
    LoadResult,
    MarkCriticalResult,
    SaveResult,
    SessionList,
)

if TYPE_CHECKING:
    from loci.app import App

ID = r"^[A-Za-z0-9_-]{1,128}$"
SessionId = Annotated[
    str, Field(pattern=ID, max_length=128, description="The session (returned by a save).")
]
CheckpointId = Annotated[str, Field(pattern=ID, max_length=128, description="A checkpoint id.")]
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False)
IDEMPOTENT = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the checkpoint tools to `server`."""
    del settings  # sizes are checked by the service, which knows the configured limits

    def workflow_checkpoint_save(
        context: Annotated[
            dict[str, Any],
            Field(description="Everything needed to carry on: goals, decisions, plan, state."),
        ],
        sessionId: SessionId | None = None,
        metadata: Annotated[
            dict[str, Any] | None,
            Field(
                description='Optional: name, tags, "critical": true (never cleaned up), '
                '"priorities": {"dotted.key": "CRITICAL|IMPORTANT|USEFUL|EPHEMERAL"}.'
            ),
        ] = None,
        force: Annotated[bool, Field(description="Save even if unchanged.")] = False,
        idempotency_key: IdempotencyKey | None = None,
    ) -> SaveResult:
        """Save the workflow's working context so a new chat can carry on. Call it at
        milestones and before the conversation runs out of room; pass the returned sessionId
        on later saves. Over the token budget, EPHEMERAL parts (timestamps, logs, raw tool
        output) are dropped and USEFUL, then IMPORTANT, parts shortened; CRITICAL parts
        (goals, decisions, constraints, pinned keys) never are. The result says what was cut."""
        return keyed(
            provider,
            "workflow_checkpoint_save",
            idempotency_key,
            {"context": context, "sessionId": sessionId, "metadata": metadata, "force": force},
            SaveResult,
            lambda app: app.checkpoints.save(context, sessionId, metadata, force),
        )

    def workflow_checkpoint_load(
        checkpointId: CheckpointId | None = None, sessionId: SessionId | None = None
    ) -> LoadResult:
        """Load a checkpoint by id, or the newest of a session, with its context and
        metadata. Call it at the start of a chat that continues a workflow."""
        return provider.call(lambda app: app.checkpoints.load(checkpointId, sessionId))

    def workflow_checkpoint_list(
        sessionId: SessionId,
        limit: Annotated[int, Field(ge=1, le=1000, description="Most checkpoints.")] = 20,
        offset: Offset = 0,
    ) -> CheckpointList:
        """A session's checkpoints, newest first, with sizes and metadata."""
        return provider.call(lambda app: app.checkpoints.list_checkpoints(sessionId, limit, offset))

    def list_sessions(
        limit: Annotated[int, Field(ge=1, le=1000, description="Most sessions.")] = 50,
        offset: Offset = 0,
    ) -> SessionList:
        """Checkpoint sessions with their checkpoint counts and last save, newest first."""
        return provider.call(lambda app: app.checkpoints.list_sessions(limit, offset))

    def workflow_mark_critical(
        sessionId: SessionId,
        contextKey: Annotated[
            str,
            Field(
                min_length=1, max_length=512, description='A key; dotted for nested: "plan.goal".'
            ),
        ],
    ) -> MarkCriticalResult:
        """Pin a context key as CRITICAL for all later saves of the session (never dropped or
        shortened). Returns KEY_NOT_FOUND if the session's newest checkpoint lacks the key."""
        return provider.call(lambda app: app.checkpoints.mark_critical(sessionId, contextKey))

    tools = [
        (workflow_checkpoint_save, "Save a workflow checkpoint", WRITE),
        (workflow_checkpoint_load, "Load a workflow checkpoint", READ_ONLY),
        (workflow_checkpoint_list, "List a session's checkpoints", READ_ONLY),
        (list_sessions, "List checkpoint sessions", READ_ONLY),
        (workflow_mark_critical, "Mark a context key critical", IDEMPOTENT),
    ]
    for function, title, annotations in tools:
        server.add_tool(function, title=title, annotations=annotations, structured_output=True)
    _register_resources(server, provider)


def _register_resources(server: MCPServer, provider: AppProvider) -> None:
    @server.resource(
        "checkpoints://sessions/{session_id}",
        name="checkpoint-session",
        title="Newest checkpoint of a workflow",
        mime_type="application/json",
    )
    def session_resource(session_id: str) -> str:
        """A workflow session's newest checkpoint (context, metadata, budget) as JSON."""
        return provider.read(
            lambda app: app.checkpoints.load(session_id=session_id).model_dump_json()
        )


#: Sessions offered for completion: the most recently saved ones.
MAX_COMPLETED_SESSIONS = 1000


def session_ids(app: "App") -> list[str]:
    """The newest workflows' session ids, offered where an argument is named `session_id`."""
    listed = app.checkpoints.list_sessions(limit=MAX_COMPLETED_SESSIONS).sessions
    return [session.session_id for session in listed]

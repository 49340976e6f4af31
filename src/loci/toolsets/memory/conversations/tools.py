"""The `remember_conversation` tool: a chat history into memory, one memory per message."""

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp.types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from loci.faces.mcp.provider import AppProvider, progress_reporter
from loci.settings import Settings
from loci.toolsets.memory.conversations.models import ConversationImportResult
from loci.toolsets.memory.tools import NAMESPACE, Namespace

MAX_MESSAGES = 5000


class Message(BaseModel):
    """One message of a conversation."""

    model_config = ConfigDict(extra="forbid")
    speaker: Annotated[
        str, Field(min_length=1, max_length=128, description="Who said it (name or role).")
    ]
    text: Annotated[str, Field(min_length=1, description="What was said.")]
    timestamp: Annotated[
        str | float, Field(description="When: ISO 8601 date or date-time, or Unix seconds.")
    ]
    session_id: Annotated[
        str | None, Field(max_length=128, description="Chat session it belongs to.")
    ] = None
    message_id: Annotated[
        str | None, Field(max_length=128, description="Stable id; re-sent ids are skipped.")
    ] = None
    valid_from: Annotated[
        str | None,
        Field(max_length=64, description="When what it says became true, if not when said."),
    ] = None
    valid_until: Annotated[
        str | None, Field(max_length=64, description="When what it says stopped being true.")
    ] = None


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add `remember_conversation` to `server`."""
    del settings  # the message limits are fixed; content limits are checked by the service

    def remember_conversation(
        messages: Annotated[list[Message], Field(min_length=1, max_length=MAX_MESSAGES)],
        namespace: Namespace,
        ctx: Context,
        conversation_id: Annotated[
            str | None,
            Field(pattern=NAMESPACE, max_length=128, description="Name of the conversation."),
        ] = None,
    ) -> ConversationImportResult:
        """Store a chat history, one memory per message ("Speaker: text"), keeping speaker,
        session, timestamp and message id as metadata. Recall then finds the turns that answer
        a question, with the messages around them. Messages already stored for this
        conversation_id (with none given: anywhere in the namespace) are skipped: the same
        message_id, or without one the same speaker, text, timestamp and session. A bad
        message stores nothing and its number is reported."""
        from loci.toolsets.memory.conversations.messages import parse_messages

        checked = parse_messages([m.model_dump(exclude_none=True) for m in messages])

        progress = progress_reporter(ctx, "storing messages")
        return provider.call(
            lambda app: app.conversations.remember_conversation(
                checked, namespace, conversation_id, progress
            )
        )

    annotations = ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=True
    )
    server.add_tool(
        remember_conversation,
        title="Remember a conversation",
        annotations=annotations,
        structured_output=True,
    )

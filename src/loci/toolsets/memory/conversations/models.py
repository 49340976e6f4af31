"""Results of the conversation services (light: imported when the MCP server starts)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ConversationImportResult(BaseModel):
    """What `remember_conversation` stored."""

    namespace: str
    stored: int = Field(description="Messages stored as new memories.")
    skipped_existing: int = Field(
        description=(
            "Messages skipped because they are stored already for this conversation (with no "
            "conversation_id given: anywhere in the namespace): the same message_id, or without "
            "one, the same speaker, text, timestamp and session."
        )
    )
    sessions: int = Field(description="Distinct session ids among the messages.")
    ids: list[str] = Field(description="Ids of the new memories, in message order.")
    conversation_id: str = Field(description="The conversation id kept in each memory's metadata.")

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


class ImportedConversation(BaseModel):
    """One conversation of a chat export, and what importing it stored."""

    app: str = Field(description="The app it came from: chatgpt, claude, claude-code, ...")
    app_id: str = Field(description="Its id in that app.")
    conversation_id: str = Field(description="Its conversation id in loci (app:id).")
    title: str | None
    opening: str = Field(description="The first words the person said in it.")
    branch: int = Field(description="1: the thread kept in the app; 2 and on: other branches.")
    namespace: str
    messages: int = Field(description="Messages read from the export.")
    new: int = Field(description="Messages stored now (with dry_run: that would be).")
    first: str | None = Field(description="Time of its first message.")
    last: str | None = Field(description="Time of its last message.")


class SkippedPart(BaseModel):
    """A conversation or file of an export that could not be read (the rest went on)."""

    where: str
    reason: str


class ChatImportReport(BaseModel):
    """What `import_chats` read from an export and stored."""

    dry_run: bool = Field(description="True: nothing was stored; `new` counts say what would be.")
    formats: dict[str, int] = Field(description="Files read, per format.")
    namespaces: list[str] = Field(description="Namespaces the conversations went to.")
    conversations: int = Field(description="Conversations (and branches) read.")
    conversations_new: int = Field(description="...of which none was stored before.")
    conversations_continued: int = Field(description="...stored before, with new messages.")
    conversations_unchanged: int = Field(description="...stored before, nothing new.")
    messages: int = Field(description="Messages read.")
    stored: int = Field(description="Messages stored now (with dry_run: that would be).")
    already_stored: int = Field(
        description=(
            "Messages skipped as stored already: by an earlier import, or earlier in this "
            "export (a resumed session replays its lines; ids are the app's own)."
        )
    )
    first: str | None = Field(description="Time of the earliest message stored (or to be).")
    last: str | None = Field(description="Time of the latest message stored (or to be).")
    left_out: dict[str, int] = Field(
        description="What is not something said in the conversation, by reason, with counts."
    )
    skipped: list[SkippedPart] = Field(description="Conversations or files that could not be read.")
    notices: list[str] = Field(description="Things to know (a log's last line cut short, ...).")
    ignored_files: list[str] = Field(description="Files of the export that hold no chats.")
    listed: list[ImportedConversation] = Field(
        description="The conversations, in the order read (the first 200)."
    )
    seconds: float

"""Which app wrote an export file, told from its first records (not its name: the split
`conversations-000.json` of newer ChatGPT exports and Claude's `conversations.json` share a
name and differ in content)."""

from __future__ import annotations

from typing import Any

from loci.toolsets.memory.conversations.exports.documents import Records

CODEX_LINES = {"session_meta", "event_msg", "response_item", "turn_context"}
CLAUDE_CODE_LINES = {"user", "assistant", "summary", "system", "file-history-snapshot"}


def format_of(records: Records) -> str | None:
    """The format name of an opened file (see `records.APPS`), or None if it is none of them."""
    if records.shape == "array":
        # The first entries may be projects or folders, which say nothing of the app.
        found = {_array_format(entry) for entry in records.sample} - {None}
        return found.pop() if len(found) == 1 else None
    if records.shape == "object":
        document = records.sample[0] if records.sample else {}
        return "gemini" if "messages" in document and "sessionId" in document else None
    return _lines_format(records.sample)


def _array_format(first: dict[str, Any]) -> str | None:
    if "mapping" in first:
        return "chatgpt"
    if "chat_messages" in first or ("uuid" in first and "messages" in first):
        return "claude"
    return None


def _lines_format(sample: list[dict[str, Any]]) -> str | None:
    kinds = {str(line.get("type")) for line in sample}
    if kinds & CODEX_LINES and any("payload" in line for line in sample):
        return "codex"
    if _older_codex(sample):
        return "codex"
    if "session_metadata" in kinds or "gemini" in kinds:
        return "gemini"
    # A resumed session may open with many summary and snapshot lines, which name no session.
    marks = ("sessionId", "leafUuid", "messageId")
    if kinds & CLAUDE_CODE_LINES and any(mark in line for line in sample for mark in marks):
        return "claude-code"
    return None


def _older_codex(sample: list[dict[str, Any]]) -> bool:
    """A rollout from before Codex wrote `session_meta`: a first line naming the session, then
    plain `message` lines with a role."""
    first = sample[0] if sample else {}
    opens = "type" not in first and "id" in first and "timestamp" in first
    return opens and any(line.get("type") == "message" and "role" in line for line in sample)


def looks_like_messages(records: Records) -> bool:
    """Whether the file is a plain list of messages (what `loci import-chat` reads)."""
    items = records.sample
    if records.shape == "object" and items and isinstance(items[0].get("messages"), list):
        return True
    return bool(items) and all(
        ("speaker" in item or "role" in item) and ("text" in item or "content" in item)
        for item in items
    )

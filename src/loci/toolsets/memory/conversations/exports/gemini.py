"""Gemini CLI's saved sessions: `~/.gemini/tmp/<project hash>/chats/session-*.json` (one
object with `sessionId` and `messages`) and the newer `.jsonl` (a `session_metadata` line, then
a line per message; `message_update` lines carry only token counts)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from loci.toolsets.memory.conversations.exports.records import (
    APPS,
    Conversation,
    Role,
    Skipped,
    Tally,
    Turn,
    from_iso,
    joined_text,
    text_of,
)
from loci.toolsets.memory.conversations.exports.tools_used import tool_line

APP = APPS["gemini"]
ROLES: dict[str, Role] = {"user": "user", "gemini": "assistant"}


def read(
    items: Iterator[dict[str, Any]], tally: Tally, all_branches: bool
) -> Iterator[Conversation | Skipped]:
    """The session of one file (`all_branches` does not apply)."""
    del all_branches
    meta: dict[str, Any] = {}
    messages: dict[str, dict[str, Any]] = {}
    for item in items:
        if isinstance(item.get("messages"), list):  # a whole session (.json)
            meta = item
            for message in item["messages"]:
                _keep(messages, message, tally)
        elif item.get("type") == "session_metadata":
            meta = item
        else:
            _keep(messages, item, tally)
    turns = [turn for turn in map(_turn, messages.values()) if turn is not None]
    if not turns:
        return
    app_id = text_of(meta.get("sessionId"))
    if not app_id:
        yield Skipped("a session", "it names no sessionId")
        return
    created = from_iso(meta.get("startTime")) or turns[0].time
    updated = from_iso(meta.get("lastUpdated")) or turns[-1].time
    yield Conversation(APP, app_id, None, turns, created, updated)


def _keep(messages: dict[str, dict[str, Any]], message: object, tally: Tally) -> None:
    """A message line; a later line with the same id replaces it (the last word is kept)."""
    if not isinstance(message, dict):
        return
    if text_of(message.get("type")) not in ROLES:
        if message.get("type") != "message_update":
            tally.leave_out("notes that are not messages (info, errors)")
        return
    key = text_of(message.get("id")) or f"{len(messages)}"
    messages[key] = message


def _turn(message: dict[str, Any]) -> Turn | None:
    lines = [joined_text(message.get("content"))]
    for call in message.get("toolCalls") or []:
        if isinstance(call, dict):
            lines.append(tool_line(text_of(call.get("name")), call.get("args")))
    text = "\n".join(filter(None, lines)).strip()
    message_id = text_of(message.get("id"))
    if not text or not message_id:
        return None
    return Turn(message_id, ROLES[message["type"]], text, from_iso(message.get("timestamp")))

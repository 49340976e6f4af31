"""Claude.ai's data export: `conversations.json`, a JSON array of conversations.

Each holds `chat_messages` (older exports: `messages`) with `sender`, a flat `text` and
`content` blocks; either may be null while the other holds the words. Where an edited prompt or
a retried answer forks the conversation (`parent_message_uuid`), the thread kept ends at
`current_leaf_message_uuid` when the export names it, else at the latest message.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
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
from loci.toolsets.memory.conversations.exports.shaping import TOOL_OUTPUT_CHARS, trimmed
from loci.toolsets.memory.conversations.exports.tools_used import tool_line

APP = APPS["claude"]
ROLES: dict[str, Role] = {"human": "user", "assistant": "assistant"}
THINKING = {"thinking", "redacted_thinking"}


def read(
    entries: Iterator[dict[str, Any]], tally: Tally, all_branches: bool
) -> Iterator[Conversation | Skipped]:
    """Each conversation's kept thread (and its other branches with `all_branches`)."""
    for number, entry in enumerate(entries, start=1):
        messages = entry.get("chat_messages", entry.get("messages"))
        if not isinstance(messages, list):
            tally.leave_out("entries without messages")
            continue
        try:
            yield from _threads(entry, messages, tally, all_branches)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            label = text_of(entry.get("name")) or text_of(entry.get("uuid")) or "untitled"
            yield Skipped(
                f"conversation {number} ({label})", f"cannot be read (an unexpected shape: {exc})"
            )


def _threads(
    entry: dict[str, Any], messages: list[Any], tally: Tally, all_branches: bool
) -> Iterator[Conversation]:
    app_id = text_of(entry.get("uuid"))
    if not app_id:
        raise ValueError("it has no uuid")
    by_id = {text_of(m.get("uuid")): m for m in messages if isinstance(m, dict)}
    kept = _kept(entry, messages, by_id)
    created = from_iso(entry.get("created_at"))
    updated = from_iso(entry.get("updated_at"))
    title = text_of(entry.get("name")).strip() or None
    yield Conversation(APP, app_id, title, _turns(kept, tally), created, updated)
    if not all_branches or not _has_tree(messages):
        return
    on_kept = {id(m) for m in kept}
    others = [m for m in _leaves(messages, by_id) if id(m) not in on_kept]
    for branch, leaf in enumerate(others, start=2):
        path = [m for m in _path(by_id, leaf) if id(m) not in on_kept]
        turns = _turns(path, tally)
        if turns:
            yield Conversation(APP, app_id, title, turns, created, updated, branch=branch)


def _kept(
    entry: Mapping[str, Any], messages: list[Any], by_id: dict[str, Any]
) -> list[dict[str, Any]]:
    """The messages of the thread the person kept, in order."""
    if not _has_tree(messages):
        return [m for m in messages if isinstance(m, dict)]  # an older export: one thread
    leaf_id = text_of(entry.get("current_leaf_message_uuid"))
    leaves = _leaves(messages, by_id)
    leaf = by_id.get(leaf_id) or (leaves[-1] if leaves else None)
    return [] if leaf is None else _path(by_id, leaf)


def _has_tree(messages: list[Any]) -> bool:
    return any(isinstance(m, dict) and "parent_message_uuid" in m for m in messages)


def _leaves(messages: list[Any], by_id: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Messages nobody answered, oldest first (the list's order breaks ties)."""
    parents = {text_of(m.get("parent_message_uuid")) for m in by_id.values()}
    leaves = [m for m in messages if isinstance(m, dict) and text_of(m.get("uuid")) not in parents]
    return sorted(leaves, key=lambda m: text_of(m.get("created_at")))


def _path(by_id: Mapping[str, Any], leaf: dict[str, Any]) -> list[dict[str, Any]]:
    path: list[dict[str, Any]] = []
    seen: set[str] = set()
    message: dict[str, Any] | None = leaf
    while message is not None and text_of(message.get("uuid")) not in seen:
        seen.add(text_of(message.get("uuid")))
        path.append(message)
        message = by_id.get(text_of(message.get("parent_message_uuid")))
    return path[::-1]


def _turns(messages: list[dict[str, Any]], tally: Tally) -> list[Turn]:
    turns = []
    for message in messages:
        role = ROLES.get(text_of(message.get("sender")))
        text = _text(message, tally).strip() if role else ""
        if role is None or not text:
            tally.leave_out("messages with no text" if role else "messages of no known sender")
            continue
        turns.append(
            Turn(text_of(message.get("uuid")), role, text, from_iso(message.get("created_at")))
        )
    return turns


def _text(message: Mapping[str, Any], tally: Tally) -> str:
    blocks = message.get("content")
    said = _blocks(blocks, tally) if isinstance(blocks, list) else ""
    said = said or text_of(message.get("text"))
    return "\n".join(filter(None, [said, *_attachments(message)]))


def _blocks(blocks: list[Any], tally: Tally) -> str:
    lines = []
    for block in blocks:
        if not isinstance(block, dict):
            continue
        kind = text_of(block.get("type"))
        if kind in THINKING:
            tally.leave_out("thinking")
        elif kind == "text":
            lines.append(text_of(block.get("text")))
        elif kind == "tool_use":
            lines.append(tool_line(text_of(block.get("name")), block.get("input")))
        elif kind == "tool_result" and joined_text(block.get("content")).strip():
            output = trimmed(joined_text(block.get("content")), TOOL_OUTPUT_CHARS)
            lines.append(f"  -> {output}")
    return "\n".join(filter(None, lines))


def _attachments(message: Mapping[str, Any]) -> list[str]:
    """Attachments' extracted text (kept, marked as such); files are references only."""
    noted = []
    for attachment in message.get("attachments") or []:
        if isinstance(attachment, dict) and text_of(attachment.get("extracted_content")).strip():
            name = text_of(attachment.get("file_name")) or "a file"
            noted.append(f"[attachment {name}]\n{attachment['extracted_content'].strip()}")
    for file in message.get("files") or []:
        if isinstance(file, dict) and text_of(file.get("file_name")):
            noted.append(f"[file {file['file_name']}]")
    return noted

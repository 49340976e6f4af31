"""ChatGPT's data export: `conversations.json` (or `conversations-000.json`, ... in newer
exports), a JSON array of conversations.

A conversation's `mapping` is a tree of nodes (`id`, `parent`, `children`, `message`): every
regenerated answer and edited prompt is a branch. The thread the person kept is the path from
`current_node` up to the root; other branches are read only when asked for.
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
    from_unix,
    text_of,
)
from loci.toolsets.memory.conversations.exports.shaping import TOOL_OUTPUT_CHARS, trimmed

APP = APPS["chatgpt"]
ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}
#: Content that is the model's own working, not what was said.
DROPPED = {"thoughts", "reasoning_recap", "tether_browsing_display"}
#: The profile and custom instructions ChatGPT puts at the root of each conversation.
PROFILE = {"user_editable_context", "model_editable_context"}


def read(
    entries: Iterator[dict[str, Any]], tally: Tally, all_branches: bool
) -> Iterator[Conversation | Skipped]:
    """Each conversation's kept thread (and its other branches with `all_branches`)."""
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry.get("mapping"), dict):
            tally.leave_out("entries without a conversation (folders, projects)")
            continue
        try:
            yield from _threads(entry, tally, all_branches)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            yield Skipped(
                f"conversation {number} ({_label(entry)})",
                f"cannot be read (an unexpected shape: {exc})",
            )


def _label(entry: Mapping[str, Any]) -> str:
    return text_of(entry.get("title")) or text_of(entry.get("id")) or "untitled"


def _threads(entry: dict[str, Any], tally: Tally, all_branches: bool) -> Iterator[Conversation]:
    mapping: dict[str, Any] = entry["mapping"]
    app_id = text_of(entry.get("conversation_id")) or text_of(entry.get("id"))
    if not app_id:
        raise ValueError("it has no id")
    kept_leaf = _kept_leaf(entry, mapping)
    kept = _path(mapping, kept_leaf)
    turns = _turns(mapping, kept, tally)
    created = from_unix(entry.get("create_time")) or _earliest(turns)
    created = created or from_unix(entry.get("update_time"))
    title = text_of(entry.get("title")) or None
    updated = from_unix(entry.get("update_time"))
    yield Conversation(APP, app_id, title, turns, created, updated)
    if not all_branches:
        return
    on_kept = set(kept)
    others = [node for node in _leaves(mapping) if node not in on_kept]
    for branch, leaf in enumerate(sorted(others, key=lambda n: _time(mapping, n)), start=2):
        path = _path(mapping, leaf)
        fork = next(i for i, node in enumerate(path) if node not in on_kept)
        branch_turns = _turns(mapping, path[fork:], tally)
        if branch_turns:
            yield Conversation(APP, app_id, title, branch_turns, created, updated, branch=branch)


def _kept_leaf(entry: Mapping[str, Any], mapping: Mapping[str, Any]) -> str:
    current = entry.get("current_node")
    if isinstance(current, str) and current in mapping:
        return current
    leaves = _leaves(mapping)
    if not leaves:
        raise ValueError("its mapping is empty")
    return max(leaves, key=lambda node: _time(mapping, node))


def _leaves(mapping: Mapping[str, Any]) -> list[str]:
    return [key for key, node in mapping.items() if not node.get("children")]


def _time(mapping: Mapping[str, Any], node: str) -> float:
    message = mapping[node].get("message") or {}
    value = message.get("create_time")
    return float(value) if isinstance(value, int | float) else 0.0


def _path(mapping: Mapping[str, Any], leaf: str) -> list[str]:
    """The nodes from the root down to `leaf`."""
    path: list[str] = []
    seen: set[str] = set()
    node: str | None = leaf
    while node is not None and node in mapping and node not in seen:
        seen.add(node)
        path.append(node)
        parent = mapping[node].get("parent")
        node = parent if isinstance(parent, str) else None
    return path[::-1]


def _earliest(turns: list[Turn]) -> Any:
    times = [turn.time for turn in turns if turn.time is not None]
    return min(times) if times else None


def _turns(mapping: Mapping[str, Any], path: list[str], tally: Tally) -> list[Turn]:
    turns = []
    for node in path:
        message = mapping[node].get("message")
        turn = _turn(message, node, tally) if isinstance(message, dict) else None
        if turn is not None:
            turns.append(turn)
    return turns


def _turn(message: dict[str, Any], node: str, tally: Tally) -> Turn | None:
    role = text_of((message.get("author") or {}).get("role"))
    content = message.get("content") or {}
    kind = text_of(content.get("content_type"))
    if role == "system" or kind in PROFILE:
        tally.leave_out("system messages, profile and custom instructions")
        return None
    if (message.get("metadata") or {}).get("is_visually_hidden_from_conversation"):
        tally.leave_out("messages hidden from the conversation")
        return None
    if kind in DROPPED:
        tally.leave_out("thinking and browsing notes")
        return None
    text = _text(content, kind).strip()
    if not text:
        tally.leave_out("messages with no text")
        return None
    recipient = text_of(message.get("recipient")) or "all"
    said = ROLES.get(role, "tool")
    if said == "assistant" and recipient != "all":  # ChatGPT calling a tool (code, search)
        text = f"(to {recipient}) {trimmed(text, TOOL_OUTPUT_CHARS)}"
    elif said == "tool":
        text = trimmed(text, TOOL_OUTPUT_CHARS)
    message_id = text_of(message.get("id")) or node
    return Turn(message_id, said, text, from_unix(message.get("create_time")))


def _text(content: Mapping[str, Any], kind: str) -> str:
    if kind == "code":
        language = text_of(content.get("language"))
        label = f"code ({language})" if language and language != "unknown" else "code"
        return f"{label}:\n{text_of(content.get('text'))}"
    if kind == "tether_quote":
        source = text_of(content.get("title")) or text_of(content.get("domain"))
        url = text_of(content.get("url"))
        return f"quoted {source} <{url}>:\n{text_of(content.get('text'))}"
    parts = content.get("parts")
    if isinstance(parts, list):
        return "\n".join(filter(None, (_part(part) for part in parts)))
    return text_of(content.get("text")) or text_of(content.get("result"))


def _part(part: object) -> str:
    """A part of a message: text, or a note of what stood there (an image, a file)."""
    if isinstance(part, str):
        return part
    if not isinstance(part, dict):
        return ""
    if text_of(part.get("text")):
        return text_of(part.get("text"))  # an audio transcription, say
    kind = text_of(part.get("content_type"))
    if kind == "image_asset_pointer":
        return "[image]"
    return f"[{kind.removesuffix('_asset_pointer') or 'attachment'}]" if kind else ""

"""What a chat export holds once read: conversations of turns, and what was left out and why.

Every format reader (one module per app) maps its app's shape onto these; the importer knows
no app.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

Role = Literal["user", "assistant", "tool"]


@dataclass(frozen=True)
class App:
    """A chat app whose exports loci reads."""

    format: str  # the `--format` name, also the default namespace
    name: str  # as people call it
    speaker: str  # who answers in it
    files: tuple[str, ...]  # the names its conversations' files have (glob patterns)

    def names_file(self, name: str) -> bool:
        """Whether a file of this name holds this app's conversations."""
        base = name.replace(":", "/").rsplit("/", 1)[-1]
        return any(fnmatch.fnmatch(base, pattern) for pattern in self.files)


APPS = {
    app.format: app
    for app in (
        App("chatgpt", "ChatGPT", "ChatGPT", ("conversations.json", "conversations-*.json")),
        App("claude", "Claude.ai", "Claude", ("conversations.json",)),
        App("claude-code", "Claude Code", "Claude", ("*.jsonl",)),
        App("codex", "Codex CLI", "Codex", ("rollout-*.jsonl",)),
        App("gemini", "Gemini CLI", "Gemini", ("session-*.json", "session-*.jsonl")),
    )
}


@dataclass(frozen=True)
class Turn:
    """One message as the app recorded it."""

    message_id: str  # the app's own id (or one made from its content where it has none)
    role: Role
    text: str
    time: datetime | None = None


@dataclass
class Conversation:
    """One conversation (or one of its other branches) of an export."""

    app: App
    app_id: str  # the conversation's id in the app
    title: str | None
    turns: list[Turn]
    created: datetime | None = None
    updated: datetime | None = None
    project: str | None = None  # the folder a coding agent worked in
    branch: int = 1  # 1: the thread the person kept; 2, 3, ...: other branches


@dataclass(frozen=True)
class Skipped:
    """A conversation (or a file) that could not be read; the rest goes on."""

    where: str
    reason: str


@dataclass
class Tally:
    """What a reader left out on purpose, by reason (shown in the summary), and notices."""

    left_out: Counter[str] = field(default_factory=Counter)
    notices: list[str] = field(default_factory=list)

    def leave_out(self, reason: str, count: int = 1) -> None:
        """Count `count` items left out for `reason`."""
        self.left_out[reason] += count

    def notice(self, text: str) -> None:
        """Something the person should hear about (a cut last line, say)."""
        self.notices.append(text)


def from_unix(value: object) -> datetime | None:
    """A Unix time in seconds (as ChatGPT writes them), or None when absent or nonsense."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return datetime.fromtimestamp(float(value), tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


def from_iso(value: object) -> datetime | None:
    """An ISO 8601 time, or None when absent or unreadable."""
    from loci.timeutil import parse_time

    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return parse_time(value)
    except ValueError:
        return None


def text_of(value: object) -> str:
    """A string field's text, or empty when it is missing, null or not a string."""
    return value if isinstance(value, str) else ""


def joined_text(content: object) -> str:
    """The words of content given as a string or as a list of parts (`{"text": ...}` or
    strings), one part per line: a tool's result, a Gemini message."""
    if isinstance(content, list):
        return "\n".join(
            text_of(part.get("text")) if isinstance(part, dict) else text_of(part)
            for part in content
        )
    return text_of(content)

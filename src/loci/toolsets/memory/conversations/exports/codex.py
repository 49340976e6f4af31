"""Codex CLI's session logs: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`.

A `session_meta` line names the session and its folder; what was said is in the `event_msg`
lines of type `user_message` and `agent_message` (the `response_item` lines repeat them, with
the context Codex injects, and are not read). Rollouts written before Codex had these lines
(until mid-2025) open with a line naming the session (`id`, `timestamp`, `instructions`) and
hold the messages as plain `message` lines, the context Codex injected among the person's
(`<environment_context>`, `<user_instructions>`), which is left out. Codex gives messages no
ids: one is made from the line's time, kind and text, so a log read again matches itself.
"""

from __future__ import annotations

import hashlib
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
    text_of,
)

APP = APPS["codex"]
SPOKEN: dict[str, Role] = {"user_message": "user", "agent_message": "assistant"}
ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}
INJECTED = ("<environment_context>", "<user_instructions>", "<user_shell_command>")


def read(
    lines: Iterator[dict[str, Any]], tally: Tally, all_branches: bool
) -> Iterator[Conversation | Skipped]:
    """The session of one rollout file (`all_branches` does not apply)."""
    del all_branches
    meta: dict[str, Any] = {}
    events: list[Turn] = []
    plain: list[Turn] = []  # the older rollouts' messages
    for line in lines:
        payload = line.get("payload")
        kind = text_of(line.get("type"))
        if not meta and "type" not in line and line.get("id"):
            meta = line  # an older rollout's first line
        elif isinstance(payload, dict):
            meta = meta or (payload if kind == "session_meta" else {})
            _event(line, payload, events, tally)
        elif kind == "message":
            _plain(line, plain, tally)
    turns = events or plain
    if not turns:
        return
    app_id = text_of(meta.get("id"))
    if not app_id:
        yield Skipped("a session", "it has no session_meta line with an id")
        return
    created = from_iso(meta.get("timestamp")) or turns[0].time
    project = text_of(meta.get("cwd")) or None
    yield Conversation(APP, app_id, None, turns, created, turns[-1].time, project=project)


def _event(line: dict[str, Any], payload: dict[str, Any], turns: list[Turn], tally: Tally) -> None:
    kind = text_of(payload.get("type"))
    if text_of(line.get("type")) != "event_msg":
        return
    if kind == "agent_reasoning":
        tally.leave_out("thinking")
    elif kind in SPOKEN:
        turn = _turn(line, payload)
        if turn is not None:
            turns.append(turn)


def _plain(line: dict[str, Any], turns: list[Turn], tally: Tally) -> None:
    """A message line of an older rollout: its text, unless it is context Codex injected."""
    role = ROLES.get(text_of(line.get("role")))
    content = line.get("content")
    parts = content if isinstance(content, list) else []
    text = "\n".join(text_of(p.get("text")) for p in parts if isinstance(p, dict)).strip()
    if role is None or not text:
        return
    if text.startswith(INJECTED):
        tally.leave_out("context Codex injected")
        return
    made_id = hashlib.sha1(f"{len(turns)}|{role}|{text}".encode()).hexdigest()[:24]
    turns.append(Turn(made_id, role, text, from_iso(line.get("timestamp"))))


def _turn(line: dict[str, Any], payload: dict[str, Any]) -> Turn | None:
    kind = text_of(payload.get("type"))
    text = text_of(payload.get("message")).strip()
    if not text:
        return None
    stamp = text_of(line.get("timestamp"))
    made_id = hashlib.sha1(f"{stamp}|{kind}|{text}".encode()).hexdigest()[:24]
    return Turn(made_id, SPOKEN[kind], text, from_iso(stamp))

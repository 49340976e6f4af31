"""Codex CLI's session logs: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`.

A `session_meta` line names the session and its folder; what was said is in the `event_msg`
lines of type `user_message` and `agent_message` (the `response_item` lines repeat them, with
the context Codex injects, and are not read). Codex gives messages no ids: one is made from
the line's time, kind and text, so a log read again matches itself.
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


def read(
    lines: Iterator[dict[str, Any]], tally: Tally, all_branches: bool
) -> Iterator[Conversation | Skipped]:
    """The session of one rollout file (`all_branches` does not apply)."""
    del all_branches
    meta: dict[str, Any] = {}
    turns: list[Turn] = []
    for line in lines:
        payload = line.get("payload")
        if not isinstance(payload, dict):
            continue
        kind = text_of(line.get("type"))
        if kind == "session_meta":
            meta = meta or payload
        elif kind == "event_msg" and text_of(payload.get("type")) in SPOKEN:
            turn = _turn(line, payload)
            if turn is not None:
                turns.append(turn)
        elif kind == "event_msg" and text_of(payload.get("type")) == "agent_reasoning":
            tally.leave_out("thinking")
    if not turns:
        return
    app_id = text_of(meta.get("id"))
    if not app_id:
        yield Skipped("a session", "it has no session_meta line with an id")
        return
    created = from_iso(meta.get("timestamp")) or turns[0].time
    project = text_of(meta.get("cwd")) or None
    yield Conversation(APP, app_id, None, turns, created, turns[-1].time, project=project)


def _turn(line: dict[str, Any], payload: dict[str, Any]) -> Turn | None:
    kind = text_of(payload.get("type"))
    text = text_of(payload.get("message")).strip()
    if not text:
        return None
    stamp = text_of(line.get("timestamp"))
    made_id = hashlib.sha1(f"{stamp}|{kind}|{text}".encode()).hexdigest()[:24]
    return Turn(made_id, SPOKEN[kind], text, from_iso(stamp))

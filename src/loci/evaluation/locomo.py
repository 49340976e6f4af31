"""Adapter for the LoCoMo long-conversation data set (Maharana et al., ACL 2024).

It maps each sample onto loci's generic chat messages and keeps the questions with their gold
evidence turns. Evidence ids are normalised as `../shared/eval/README.md` says: split on ';',
drop stray colons, strip leading zeros; questions whose evidence resolves to no turn are skipped
and counted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from loci.errors import InvalidInputError
from loci.timeutil import format_time
from loci.toolsets.memory.conversations.messages import ChatMessage, parse_message

SESSION_KEY = re.compile(r"^session_(\d+)\Z")
DIA_ID = re.compile(r"^D(\d+):(\d+)\Z")
DATE_FORMAT = "%I:%M %p on %d %B, %Y"


@dataclass(frozen=True)
class Question:
    """One question with the dialogue turns that hold its answer."""

    text: str
    category: int
    evidence: tuple[str, ...]


@dataclass
class Conversation:
    """One LoCoMo sample in loci's terms."""

    sample_id: str
    messages: list[ChatMessage]
    questions: list[Question] = field(default_factory=list)
    skipped: int = 0

    def session_of(self, message_id: str) -> str | None:
        """The session holding a turn (`D3:7` -> `session_3`)."""
        match = DIA_ID.match(message_id)
        return f"session_{match.group(1)}" if match else None


def load(path: Path) -> list[Conversation]:
    """Every sample of a LoCoMo JSON file; raises InvalidInputError for a malformed file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"cannot read LoCoMo file {path}: {exc}", path=str(path)) from exc
    if not isinstance(data, list) or not data:
        raise InvalidInputError(
            f"{path} must hold a non-empty list of LoCoMo samples", path=str(path)
        )
    return [_conversation(sample, number) for number, sample in enumerate(data)]


def normalise_evidence(raw: str) -> list[str]:
    """`"D8:6; D9:17"` -> `["D8:6", "D9:17"]`; `"D:11:26"` -> `["D11:26"]`; `"D30:05"` -> `["D30:5"]`."""
    ids = []
    for part in raw.split(";"):
        digits = re.findall(r"\d+", part)
        if part.strip().startswith("D") and len(digits) == 2:
            ids.append(f"D{int(digits[0])}:{int(digits[1])}")
    return ids


def _conversation(sample: Any, number: int) -> Conversation:
    if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict):
        raise InvalidInputError(
            f"LoCoMo sample {number} has no 'conversation' object", sample=number
        )
    sample_id = str(sample.get("sample_id", f"sample-{number}"))
    messages = _messages(sample["conversation"], sample_id)
    conversation = Conversation(sample_id=sample_id, messages=messages)
    known = {m.message_id for m in messages}
    for qa in sample.get("qa", []):
        evidence = tuple(e for raw in qa.get("evidence", []) for e in normalise_evidence(str(raw)))
        evidence = tuple(dict.fromkeys(e for e in evidence if e in known))
        if not evidence or not isinstance(qa.get("question"), str):
            conversation.skipped += 1
            continue
        conversation.questions.append(
            Question(text=qa["question"], category=int(qa.get("category", 0)), evidence=evidence)
        )
    return conversation


def _messages(body: dict[str, Any], sample_id: str) -> list[ChatMessage]:
    sessions = sorted(
        (int(match.group(1)), key) for key in body if (match := SESSION_KEY.match(key))
    )
    messages: list[ChatMessage] = []
    for _, key in sessions:
        when = _session_time(body.get(f"{key}_date_time"), sample_id, key)
        for turn in body[key] or []:
            record = {
                "speaker": turn.get("speaker"),
                "text": _turn_text(turn),
                "timestamp": when,
                "session_id": key,
                "message_id": turn.get("dia_id"),
            }
            messages.append(parse_message(record, len(messages)))
    if not messages:
        raise InvalidInputError(
            f"LoCoMo sample {sample_id} has no dialogue turns", sample=sample_id
        )
    return messages


def _turn_text(turn: dict[str, Any]) -> str:
    """The turn's words; a shared photo is described by its caption, as a reader would see it."""
    text = str(turn.get("text", "")).strip()
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text = f"{text} [shares a photo: {caption.strip()}]".strip()
    return text


def _session_time(raw: Any, sample_id: str, key: str) -> str:
    try:
        return format_time(datetime.strptime(str(raw).strip(), DATE_FORMAT))
    except ValueError:
        raise InvalidInputError(
            f"LoCoMo sample {sample_id}: {key}_date_time {raw!r} is not like '1:56 pm on 8 May, 2023'",
            sample=sample_id,
        ) from None

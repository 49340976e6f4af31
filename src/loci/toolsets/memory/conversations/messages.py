"""The generic message shape of a chat history, and reading it from JSON or JSONL.

A message is `{speaker | role, text | content, timestamp, session_id?, message_id?,
valid_from?, valid_until?}` (what it says is true from when it was said, unless `valid_from`
says otherwise). Format
adapters (LoCoMo, exports of chat apps) map their own shape onto this one; nothing below knows
any particular source. Every problem is reported with the number of the record that has it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from loci.errors import InvalidInputError
from loci.fields import shown
from loci.timeutil import format_time, parse_time

MAX_SPEAKER_CHARS = 128
MAX_ID_CHARS = 128
SPEAKER_KEYS = ("speaker", "role")
TEXT_KEYS = ("text", "content")


@dataclass(frozen=True)
class ChatMessage:
    """One message of a conversation, checked."""

    speaker: str
    text: str
    timestamp: str  # loci's stored time form (UTC, fixed width)
    session_id: str | None = None
    message_id: str | None = None
    valid_from: str | None = None  # ISO 8601 as given; checked with the memory it becomes
    valid_until: str | None = None


def parse_messages(records: object) -> list[ChatMessage]:
    """Check a list of message records; raises InvalidInputError naming the first bad record."""
    if isinstance(records, Mapping) and "messages" in records:
        records = records["messages"]
    if not isinstance(records, Sequence) or isinstance(records, str | bytes):
        raise InvalidInputError(
            "a conversation must be a JSON list of messages (or an object with a 'messages' list)",
            field="messages",
        )
    if not records:
        raise InvalidInputError("the conversation holds no messages", field="messages")
    return [parse_message(record, number) for number, record in enumerate(records)]


def parse_message(record: object, number: int) -> ChatMessage:
    """One message record, `number` counting from 0 (used in error messages)."""
    if not isinstance(record, Mapping):
        raise _bad(number, "message", f"must be a JSON object, got {shown(record)}")
    if "messages" in record and not any(key in record for key in SPEAKER_KEYS + TEXT_KEYS):
        # A whole conversation on one line of a .jsonl file.
        raise _bad(
            number,
            "message",
            "is a whole conversation ({'messages': [...]}): a .jsonl file holds one message "
            "per line; save a wrapped conversation as .json",
        )
    speaker = _text_field(record, SPEAKER_KEYS, number, MAX_SPEAKER_CHARS)
    text = _text_field(record, TEXT_KEYS, number, None)
    return ChatMessage(
        speaker=speaker,
        text=text,
        timestamp=_timestamp(record, number),
        session_id=_optional_id(record, "session_id", number),
        message_id=_optional_id(record, "message_id", number),
        valid_from=_optional_text(record, "valid_from", number),
        valid_until=_optional_text(record, "valid_until", number),
    )


def read_chat_file(path: Path) -> list[ChatMessage]:
    """Messages from a `.json` file (a list, or `{"messages": [...]}`) or a `.jsonl` file."""
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path}: {exc}", path=str(path)) from exc
    if path.suffix.lower() == ".jsonl":
        return parse_messages(_jsonl_records(raw, path))
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
            path=str(path),
            line=exc.lineno,
        ) from exc
    return parse_messages(data)


def _jsonl_records(raw: str, path: Path) -> list[Any]:
    records: list[Any] = []
    for line_number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise InvalidInputError(
                f"{path} line {line_number} is not valid JSON ({exc.msg})",
                path=str(path),
                line=line_number,
            ) from exc
    return records


def _text_field(
    record: Mapping[str, Any], keys: tuple[str, ...], number: int, max_chars: int | None
) -> str:
    present = [key for key in keys if key in record]
    if not present:
        raise _bad(number, keys[0], f"is missing (give {' or '.join(repr(k) for k in keys)})")
    key = present[0]
    value = record[key]
    if not isinstance(value, str) or not value.strip():
        raise _bad(number, key, f"must be a non-empty string, got {shown(value)}")
    if "\x00" in value:
        raise _bad(number, key, "must not contain NUL characters")
    if max_chars is not None and len(value) > max_chars:
        raise _bad(number, key, f"must be at most {max_chars} characters")
    return value.strip()


def _timestamp(record: Mapping[str, Any], number: int) -> str:
    if "timestamp" not in record:
        raise _bad(number, "timestamp", "is missing (an ISO 8601 date or time, or Unix seconds)")
    value = record["timestamp"]
    try:
        if isinstance(value, bool):
            raise TypeError
        if isinstance(value, int | float):
            return format_time(datetime.fromtimestamp(value, tz=UTC))
        if isinstance(value, str):
            return format_time(parse_time(value))
        raise TypeError
    except (TypeError, ValueError, OverflowError, OSError):
        raise _bad(
            number,
            "timestamp",
            f"must be an ISO 8601 date or time or Unix seconds, got {shown(value)}",
        ) from None


def _optional_id(record: Mapping[str, Any], key: str, number: int) -> str | None:
    value = record.get(key)
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_ID_CHARS:
        raise _bad(
            number, key, f"must be a string of 1-{MAX_ID_CHARS} characters, got {shown(value)}"
        )
    return value.strip()


def _optional_text(record: Mapping[str, Any], key: str, number: int) -> str | None:
    value = record.get(key)
    if value is not None and (not isinstance(value, str) or len(value) > MAX_ID_CHARS):
        raise _bad(number, key, f"must be an ISO 8601 date or date-time, got {shown(value)}")
    return value


def _bad(number: int, field: str, problem: str) -> InvalidInputError:
    return InvalidInputError(f"message {number}: {field} {problem}", record=number, field=field)

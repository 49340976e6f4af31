"""Checks on the fields a caller sends, shared by every toolset, the MCP tools and the CLI.

Each check raises :class:`~loci.errors.InvalidInputError` naming the field, before anything is
written.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from loci.errors import InvalidInputError
from loci.timeutil import format_time, parse_time

UUID_PATTERN = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z")
NAMESPACE_PATTERN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}\Z")
SOURCE_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,31}\Z")
MAX_TAGS = 64
MAX_TAG_CHARS = 64
MAX_SHOWN = 80
#: How deep metadata objects and arrays may nest. SQLite's JSON functions refuse documents
#: nested over 1,000 deep, and one such row would break every metadata filter; Python's
#: encoder stops near there too.
MAX_METADATA_DEPTH = 32
#: The largest count, offset or version number accepted (SQLite's integers are 64-bit).
MAX_COUNT = 2**62
MAX_NAME_CHARS = 128


def shown(value: object) -> str:
    """A bounded, printable rendering of a bad value for an error message."""
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def memory_id(value: str, field: str = "memory_id") -> str:
    """A memory id: a UUID in canonical lower-case form."""
    if not isinstance(value, str) or not UUID_PATTERN.match(value.lower()):
        raise InvalidInputError(
            f"{field} must be a memory id (a UUID like 3f2b...-...), got {shown(value)}",
            field=field,
        )
    return value.lower()


def namespace(value: str, field: str = "namespace") -> str:
    """A namespace name: letters, digits, `_ . : -`, at most 128 characters."""
    if not isinstance(value, str) or not NAMESPACE_PATTERN.match(value):
        raise InvalidInputError(
            f"{field} must be 1-128 characters of letters, digits, '_', '.', ':' or '-' "
            f"(not starting with '.', ':' or '-'), got {shown(value)}",
            field=field,
        )
    return value


def content(
    value: str,
    max_bytes: int,
    field: str = "content",
    setting: str | None = "LOCI_MAX_CONTENT_BYTES",
) -> str:
    """Memory text: not blank, valid Unicode, no NUL, at most `max_bytes` as UTF-8 (the limit
    `setting` configures, named in the error)."""
    if not isinstance(value, str):
        raise InvalidInputError(f"{field} must be a string", field=field)
    size = len(utf8(value, field))
    if not value.strip():
        raise InvalidInputError(f"{field} must not be empty or only whitespace", field=field)
    if size > max_bytes:
        raise InvalidInputError(
            f"{field} is {size} bytes; the limit is {max_bytes}"
            + (f" ({setting})" if setting else ""),
            field=field,
            size_bytes=size,
            max_bytes=max_bytes,
        )
    if "\x00" in value:
        raise InvalidInputError(f"{field} must not contain NUL characters", field=field)
    return value


def utf8(value: str, field: str) -> bytes:
    """Encode as UTF-8, refusing lone surrogates (text that was not valid UTF-8)."""
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInputError(
            f"{field} is not valid Unicode text (unpaired surrogate at position {exc.start})",
            field=field,
        ) from exc


def importance(value: float, field: str = "importance") -> float:
    """A number in 0..1."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInputError(f"{field} must be a number between 0 and 1", field=field)
    if not 0.0 <= value <= 1.0:
        raise InvalidInputError(f"{field} must be between 0 and 1, got {value}", field=field)
    return float(value)


def tags(values: list[str], field: str = "tags") -> list[str]:
    """Tags: at most 64, each 1-64 printable characters; duplicates dropped, order kept."""
    if not isinstance(values, list):
        raise InvalidInputError(f"{field} must be a list of strings", field=field)
    if len(values) > MAX_TAGS:
        raise InvalidInputError(f"{field} has {len(values)} tags; at most {MAX_TAGS}", field=field)
    cleaned: list[str] = []
    for tag in values:
        if not isinstance(tag, str) or not tag.strip() or len(tag) > MAX_TAG_CHARS:
            raise InvalidInputError(
                f"each tag must be 1-{MAX_TAG_CHARS} characters, got {shown(tag)}", field=field
            )
        utf8(tag, field)
        if _has_control(tag):
            raise InvalidInputError(f"tag {shown(tag)} contains control characters", field=field)
        if tag.strip() not in cleaned:
            cleaned.append(tag.strip())
    return cleaned


def metadata(value: Mapping[str, Any], max_bytes: int, field: str = "metadata") -> str:
    """Metadata as compact JSON text: an object with string keys, finite numbers, bounded size."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"{field} must be a JSON object", field=field)
    if _nesting(value) > MAX_METADATA_DEPTH:
        raise InvalidInputError(
            f"{field} nests objects and arrays more than {MAX_METADATA_DEPTH} levels deep",
            field=field,
        )
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{field} is not valid JSON: {exc}", field=field) from exc
    size = len(utf8(text, field))
    if size > max_bytes:
        raise InvalidInputError(
            f"{field} is {size} bytes as JSON; the limit is {max_bytes} (LOCI_MAX_METADATA_BYTES)",
            field=field,
        )
    return text


def _nesting(value: Any) -> int:
    """How deep objects and arrays nest in `value` (counted without recursion, and only up to
    one level past MAX_METADATA_DEPTH)."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending and deepest <= MAX_METADATA_DEPTH:
        item, level = pending.pop()
        if isinstance(item, Mapping):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        pending.extend((child, level + 1) for child in children)
    return deepest


def source(value: str, field: str = "source") -> str:
    """Where a memory came from: a short lower-case word such as `manual` or `imported`."""
    if not isinstance(value, str) or not SOURCE_PATTERN.match(value):
        raise InvalidInputError(
            f"{field} must be a short lower-case word like 'manual', got {shown(value)}",
            field=field,
        )
    return value


def bounded_int(value: int, low: int, high: int, field: str) -> int:
    """An integer within [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInputError(
            f"{field} must be an integer from {low} to {high}, got {shown(value)}", field=field
        )
    return value


def unit_float(value: float, field: str) -> float:
    """A number within [0, 1]."""
    return importance(value, field)


def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def moment(value: str, field: str = "occurred_at") -> str:
    """A time in ISO 8601 (a date, or a date and time), in loci's stored form (UTC)."""
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return format_time(parse_time(value))
    except ValueError:
        raise InvalidInputError(
            f"{field} must be an ISO 8601 date or date-time such as 2024-05-04T10:30:00Z, "
            f"got {shown(value)}",
            field=field,
        ) from None


def name(value: str, field: str) -> str:
    """A name of 1-128 printable characters, trimmed."""
    if isinstance(value, str) and value and not value.strip():
        # "got '   '" beside "1-128 characters" read as a count gone wrong to a tester.
        raise InvalidInputError(f"{field} must not be blank, got {shown(value)}", field=field)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME_CHARS:
        raise InvalidInputError(
            f"{field} must be 1-{MAX_NAME_CHARS} characters, got {shown(value)}", field=field
        )
    utf8(value, field)
    if _has_control(value):
        raise InvalidInputError(f"{field} must not contain control characters", field=field)
    return value.strip()

"""Timestamps: UTC, stored as fixed-width ISO 8601 text so they sort and compare as strings."""

from __future__ import annotations

from datetime import UTC, datetime

_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def now() -> str:
    """The current time in loci's stored form."""
    return format_time(datetime.now(UTC))


def format_time(moment: datetime) -> str:
    """`2026-01-13T10:30:00.000000Z`; naive datetimes are taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime(_FORMAT)


def parse_time(text: str) -> datetime:
    """Parse ISO 8601 (a date, or a date and time with optional zone); raises ValueError."""
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

"""Timestamps: UTC, stored as fixed-width ISO 8601 text so they sort and compare as strings."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> str:
    """The current time in loci's stored form."""
    return _stored_form(datetime.now(UTC))


def format_time(moment: datetime) -> str:
    """`2026-01-13T10:30:00.000000Z`; naive datetimes are taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return _stored_form(moment.astimezone(UTC))


def _stored_form(moment: datetime) -> str:
    # isoformat pads years before 1000 to four digits (strftime's %Y does not on glibc, and
    # "999-..." neither sorts nor parses); a UTC moment's isoformat ends with "+00:00".
    return moment.isoformat(timespec="microseconds")[:-6] + "Z"


def parse_time(text: str) -> datetime:
    """Parse ISO 8601 (a date, or a date and time with optional zone) into UTC; raises
    ValueError, also for a time that UTC cannot hold (`0001-01-01T00:00+01:00`)."""
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # the year would leave 1-9999
        raise ValueError(f"{text!r} is out of range in UTC") from None

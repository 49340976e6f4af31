"""Checks on a memory draft, field by field, before anything is written; the identity of a text.

Each check raises :class:`~loci.errors.InvalidInputError` naming the field.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from loci.engine.sequences.members import KINDS
from loci.errors import InvalidInputError
from loci.fields import content, importance, metadata, moment, name, namespace, shown, source, tags
from loci.storage.memory_tables.placements import Placement
from loci.timeutil import now

if TYPE_CHECKING:
    from loci.toolsets.memory.models import MemoryDraft, SequenceDraft

#: Positions in a sequence: any number a float holds exactly as an integer, and fractions.
MAX_POSITION = 2.0**53


@dataclass(frozen=True)
class CheckedDraft:
    """A memory draft whose every field passed its check (metadata already JSON text)."""

    content: str
    namespace: str
    tags: list[str]
    importance: float
    metadata_json: str
    source: str
    occurred_at: str | None = None
    placement: Placement | None = None
    valid_from: str | None = None
    valid_until: str | None = None


def draft(
    value: MemoryDraft, max_content_bytes: int, max_metadata_bytes: int, default_namespace: str
) -> CheckedDraft:
    """Check every field of a memory draft."""
    occurred_at = None if value.occurred_at is None else moment(value.occurred_at)
    valid_from, valid_until = validity(value.valid_from, value.valid_until, occurred_at)
    return CheckedDraft(
        content=content(value.content, max_content_bytes),
        namespace=namespace(value.namespace or default_namespace),
        tags=tags(value.tags),
        importance=importance(value.importance),
        metadata_json=metadata(value.metadata, max_metadata_bytes),
        source=source(value.source),
        occurred_at=occurred_at,
        placement=None if value.sequence is None else placement(value.sequence),
        valid_from=valid_from,
        valid_until=valid_until,
    )


def validity(
    valid_from: str | None, valid_until: str | None, occurred_at: str | None = None
) -> tuple[str | None, str | None]:
    """`valid_from` and `valid_until` in stored form; refused if the interval would end
    before it starts (without `valid_from`, it starts when it happened, else now)."""
    start = None if valid_from is None else moment(valid_from, "valid_from")
    end = None if valid_until is None else moment(valid_until, "valid_until")
    begins = start or occurred_at or now()
    # Equal ends make an interval holding no moment: a memory never true, which no
    # question could find.
    if end is not None and end <= begins:
        named = "valid_from" if start else "occurred_at" if occurred_at else "now (give valid_from)"
        raise InvalidInputError(
            f"valid_until ({end}) is not after {named} ({begins}): an interval cannot end "
            "before it starts",
            field="valid_until",
        )
    return start, end


def placement(value: SequenceDraft, field: str = "sequence") -> Placement:
    """A memory's place in a sequence: a name, a known kind, a finite position, an actor."""
    if value.kind not in KINDS:
        raise InvalidInputError(
            f"{field}.kind must be one of {', '.join(KINDS)}, got {shown(value.kind)}",
            field=f"{field}.kind",
        )
    position = value.position
    if position is not None and (
        isinstance(position, bool)
        or not isinstance(position, int | float)
        or not abs(position) <= MAX_POSITION
    ):
        raise InvalidInputError(
            f"{field}.position must be a number from -2^53 to 2^53, got {shown(position)}",
            field=f"{field}.position",
        )
    actor = None if value.actor is None else name(value.actor, f"{field}.actor")
    return Placement(
        name(value.name, f"{field}.name"),
        value.kind,
        None if position is None else float(position),
        actor,
    )


def content_hash(text: str) -> str:
    """Identity of a memory's content, for duplicate detection."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()

"""What the checkpoint services return; field names are camelCase on the wire, as in the spec."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel
from typing_extensions import TypedDict


class _Wire(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True
    )


class ShortenedPart(_Wire):
    """A part of the context that was cut down to fit the budget."""

    path: str
    tier: str
    tokens_before: int
    tokens_after: int


class BudgetInfo(_Wire):
    """What fitting the context into its token budget did."""

    applied: bool = Field(description="False when the context was within budget.")
    budget_tokens: int
    tokens_before: int
    tokens_after: int
    over_budget: bool = Field(description="The context as stored is over the budget.")
    critical_over_budget: bool = Field(
        default=False,
        description="CRITICAL parts alone exceed the budget: the context was saved whole.",
    )
    dropped: list[str] = Field(
        description="Keys removed: EPHEMERAL ones, and any shortened to nothing."
    )
    shortened: list[ShortenedPart] = Field(description="Keys shortened (whole sentences kept).")


class SaveResult(_Wire):
    """The outcome of workflow_checkpoint_save."""

    checkpoint_id: str
    session_id: str
    status: Literal["SAVED", "SKIPPED_UNCHANGED"]
    size_bytes: int = Field(description="JSON size of the context as stored.")
    stored_bytes: int = Field(description="Bytes on disk after compression (and encryption).")
    compression_ratio: float
    encrypted: bool
    tiers: dict[str, int] = Field(description="How many keys fell in each tier.")
    budget: BudgetInfo
    cleaned_up: list[str] = Field(description="Old checkpoints removed to stay within quotas.")


class LoadResult(_Wire):
    """A checkpoint, with its context as saved."""

    checkpoint_id: str
    session_id: str
    created_at: str
    context: dict[str, Any]
    metadata: dict[str, Any]
    size_bytes: int
    encrypted: bool
    budget: BudgetInfo | None = Field(description="What the budget changed when it was saved.")


class CheckpointSummary(TypedDict):
    """One checkpoint in a listing, keys as on the wire. A plain dict (not a model): listing a
    thousand checkpoints then costs about 1.6x the bare query instead of 4x."""

    checkpointId: str
    sessionId: str
    createdAt: str
    sizeBytes: int
    storedBytes: int
    critical: bool  # kept by cleanup (saved with metadata.critical true)
    metadata: dict[str, Any]


class CheckpointList(_Wire):
    """A page of a session's checkpoints, newest first."""

    session_id: str
    checkpoints: list[CheckpointSummary]
    total: int
    next_offset: int | None


class SessionInfo(_Wire):
    """A checkpoint session."""

    session_id: str
    workflow_id: str | None
    created_at: str
    last_saved_at: str
    checkpoints: int
    stored_bytes: int
    pinned_keys: list[str]


class SessionList(_Wire):
    """Sessions, most recently saved first."""

    sessions: list[SessionInfo]
    total: int
    next_offset: int | None


class MarkCriticalResult(_Wire):
    """The outcome of workflow_mark_critical."""

    status: Literal["SUCCESS", "KEY_NOT_FOUND"]
    message: str
    pinned_keys: list[str]


class GcResult(_Wire):
    """What `loci checkpoints gc` removed."""

    removed_checkpoints: list[str]
    removed_blobs: int
    removed_temporary_files: int
    freed_bytes: int


class RotateResult(_Wire):
    """What `loci checkpoints rotate-key` did."""

    new_key_id: str
    retired_key_ids: list[str] = Field(
        description="Old keys dropped; none while any checkpoint could not be re-encrypted."
    )
    reencrypted: int
    unreadable: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Checkpoints skipped (blob damaged or missing), each with its error.",
    )

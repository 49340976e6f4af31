"""Result shapes of the memory service; the MCP tools return them as structured content."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field


@dataclass(frozen=True)
class MemoryDraft:
    """A memory as a caller describes it, before validation."""

    content: str
    namespace: str | None = None
    tags: list[str] = field(default_factory=list)
    importance: float = 0.5
    metadata: Mapping[str, Any] = field(default_factory=dict)
    source: str = "manual"
    occurred_at: str | None = None  # when it happened (ISO 8601), if not when it is stored
    sequence: SequenceDraft | None = None
    valid_from: str | None = None  # when it became true (ISO 8601), if not when it happened
    valid_until: str | None = None  # when it stopped being true, if it has


@dataclass(frozen=True)
class SequenceDraft:
    """Where a memory goes in a sequence, as a caller describes it, before validation."""

    name: str
    kind: str = "log"
    position: float | None = None
    actor: str | None = None


class SequencePlace(BaseModel):
    """A memory's place in a sequence (a conversation session, a story, a log)."""

    name: str = Field(description="The sequence, unique within its namespace.")
    kind: Literal["conversation", "story", "log"]
    position: float = Field(description="Order within the sequence.")
    actor: str | None = Field(default=None, description="Who said or did it.")


class Memory(BaseModel):
    """A stored memory with all of its fields."""

    id: str = Field(description="UUID of the memory.")
    content: str
    namespace: str
    tags: list[str]
    importance: float = Field(ge=0.0, le=1.0)
    source: str
    metadata: dict[str, Any]
    created_at: str = Field(description="ISO 8601, UTC.")
    updated_at: str
    last_accessed: str
    access_count: int
    occurred_at: str | None = Field(
        default=None, description="When it happened, if given (ISO 8601, UTC)."
    )
    sequence: SequencePlace | None = Field(
        default=None, description="Its place in a sequence, if it is in one."
    )
    valid_from: str | None = Field(
        default=None,
        description="When it became true in the world (ISO 8601, UTC): as given, else when "
        "it happened, else when it was stored.",
    )
    valid_until: str | None = Field(
        default=None, description="When it stopped being true; null while it is."
    )
    superseded_by: str | None = Field(
        default=None, description="The id of the memory that replaced it, if one did."
    )
    supersedes: list[str] = Field(
        default_factory=list, description="The ids of the memories it replaced."
    )
    disputed_with: list[str] = Field(
        default_factory=list,
        description="Ids of memories it was flagged as contradicting, not yet settled "
        "(`supersede` or `dismiss_conflict` settles a pair).",
    )


class MemoryHit(Memory):
    """A memory found by a search, with how well it matched."""

    similarity: float = Field(
        ge=0.0,
        le=1.0,
        description=(
            "Cosine similarity to the query (clipped at 0), whose conversation speakers' "
            "names are left out."
        ),
    )
    score: float = Field(description="Ranking score the results are ordered by.")
    signals: dict[str, float] | None = Field(
        default=None,
        description="With explain: each ranking signal's value (0-1) for this memory.",
    )


class RememberResult(BaseModel):
    """What `remember` stored."""

    id: str
    content: str
    namespace: str
    created_at: str


class ItemError(BaseModel):
    """Why one item of a batch was not processed."""

    index: int = Field(description="Position of the item in the request.")
    type: str
    message: str


class RememberBatchResult(BaseModel):
    """What `remember_batch` stored; `ids` follows the order of the stored items."""

    stored: int
    ids: list[str]
    failed: int
    errors: list[ItemError]


class RecallResult(BaseModel):
    """Memories matching a query, best first."""

    memories: list[MemoryHit]
    total: int
    mode: Literal["hybrid", "vector", "keyword"]
    query_embedding_time_ms: float
    weights: dict[str, float] | None = Field(
        default=None, description="With explain: the weight of each ranking signal."
    )


class MemoryRef(BaseModel):
    """A short reference to a memory."""

    id: str
    content: str


class NearbyResult(BaseModel):
    """Memories closest to a reference memory in vector space."""

    reference: MemoryRef
    neighbors: list[MemoryHit]


class ForgetResult(BaseModel):
    """What `forget` deleted (or would delete, with `dry_run`)."""

    deleted: int
    ids: list[str]
    dry_run: bool


class ForgetBatchResult(BaseModel):
    """What `forget_batch` deleted."""

    deleted: int
    failed: int
    ids: list[str]
    not_found: list[str]


class NamespaceInfo(BaseModel):
    """A namespace and how many memories it holds."""

    name: str
    count: int
    created: str


class NamespacesResult(BaseModel):
    """Outcome of a `namespaces` action; only the fields of that action are set."""

    action: Literal["list", "create", "delete", "rename"]
    namespaces: list[NamespaceInfo] | None = None
    created: str | None = None
    deleted: str | None = None
    memories_removed: int | None = None
    renamed: str | None = None
    new_name: str | None = None
    memories_moved: int | None = None
    message: str


class StatsResult(BaseModel):
    """Figures about the store (or one namespace of it)."""

    total_memories: int
    namespaces: dict[str, int]
    embedding_model: str
    embedding_dimensions: int
    storage_path: str | None = Field(
        description="Where the store is (none for a token limited to some namespaces)."
    )
    storage_size_mb: float | None = Field(
        description="The whole store's size (none for a token limited to some namespaces)."
    )
    oldest_memory: str | None
    newest_memory: str | None
    average_importance: float | None
    tag_distribution: dict[str, int]
    schema_version: int
    model_loaded: bool
    warnings: list[str] = []


class ExportedMemory(Memory):
    """A memory as it appears in an export file."""

    vector: list[float] | None = None


class ExportData(BaseModel):
    """The export document; `import_memories` and `loci import` read it back."""

    version: str = "1.0.0"
    exported_at: str
    embedding_model: str
    embedding_dimensions: int
    memories: list[ExportedMemory]


class ExportResult(BaseModel):
    """An export, with how many memories it holds and its size as JSON."""

    export: ExportData
    count: int
    size_bytes: int
    next_offset: int | None = Field(description="Offset of the next page, or null at the end.")


class ImportResult(BaseModel):
    """What an import stored and skipped."""

    imported: int
    skipped_duplicates: int
    failed: int
    errors: list[ItemError]
    ids: list[str]


class Conflict(BaseModel):
    """A stored memory that a new one likely contradicts."""

    id: str
    content: str
    reason: str = Field(description="Why they look contradictory, in words.")
    outcome: Literal["flagged", "superseded", "kept"] = Field(
        default="flagged",
        description="What was done: both flagged as disputed, the stored one superseded by "
        "the new one, or nothing marked (`keep`, or a supersede asked of a memory that became "
        "true after the new one: flagged instead).",
    )


class RememberFactResult(RememberResult):
    """What `remember` stored, with the memories it likely contradicts."""

    valid_from: str = Field(description="When the memory became true (ISO 8601, UTC).")
    conflicts: list[Conflict] = Field(
        default_factory=list,
        description="Current memories of its namespace it likely contradicts (the same "
        "subject and kind of fact, another value); what was done is `on_conflict`.",
    )
    on_conflict: Literal["flag", "supersede", "keep"] = "flag"


class BatchConflicts(BaseModel):
    """The memories one item of a batch likely contradicts."""

    id: str = Field(description="The stored item.")
    conflicts: list[Conflict]


class RememberBatchFactResult(RememberBatchResult):
    """What `remember_batch` stored, with what its items likely contradict."""

    conflicts: list[BatchConflicts] = Field(
        default_factory=list,
        description="For each item that likely contradicts memories stored before it (the "
        "batch's earlier items included), those memories; handled as `on_conflict` says.",
    )
    on_conflict: Literal["flag", "supersede", "keep"] = "flag"


class SupersedeResult(BaseModel):
    """A memory replaced by another."""

    old_id: str
    new_id: str
    valid_until: str = Field(description="When the old memory stopped being true.")
    created: bool = Field(description="Whether the new memory was stored by this call.")


class InvalidateResult(BaseModel):
    """A memory that stopped being true, with no successor."""

    id: str
    valid_until: str


class DismissResult(BaseModel):
    """A pair of memories the writer says do not contradict each other."""

    ids: list[str]
    was_flagged: bool = Field(description="Whether loci had flagged the pair.")


class HistoryResult(BaseModel):
    """A memory's chain of versions, the first first: each replaced by the next."""

    id: str
    chain: list[Memory]


class ConflictPair(BaseModel):
    """Two memories flagged as contradicting each other, not yet settled."""

    older: MemoryRef
    newer: MemoryRef
    reason: str
    noted_at: str


class ConflictsResult(BaseModel):
    """Open conflicts, newest first."""

    conflicts: list[ConflictPair]

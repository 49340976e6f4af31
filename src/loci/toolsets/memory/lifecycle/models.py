"""The shapes of the lifecycle tools' results (no numpy here: the MCP layer imports them)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from loci.toolsets.memory.models import MemoryRef


class ReinforceResult(BaseModel):
    """A memory's importance before and after `reinforce`."""

    id: str
    content: str
    importance_before: float
    importance_after: float
    access_count: int


#: Decay strategies: what starts a memory's idle clock, and whether use softens it.
DECAY_STRATEGIES = ("time", "access", "combined")
#: Memories listed in a decay result (all are counted).
DECAYS_LISTED = 100


class DecayedMemory(BaseModel):
    """One memory whose importance decay lowers."""

    id: str
    content: str
    importance_before: float
    importance_after: float
    reason: str


class DecayResult(BaseModel):
    """What `decay` changed, or would change with dry_run."""

    strategy: str
    affected: int = Field(description="Memories whose importance goes down.")
    unchanged: int = Field(description="At the floor already, or decayed too recently to move.")
    decay_applied: list[DecayedMemory] = Field(
        description=f"The {DECAYS_LISTED} largest drops, largest first."
    )
    dry_run: bool


#: Consolidation strategies: which memory of a group survives, and with what text.
CONSOLIDATE_STRATEGIES = ("keep_newest", "keep_oldest", "merge")


class ConsolidatedGroup(BaseModel):
    """Near-duplicates made one."""

    kept: MemoryRef = Field(description="The memory that remains (its text after merging).")
    merged_from: list[MemoryRef] = Field(
        description="The memories folded into it; their ids now resolve to the kept one."
    )
    similarity: float = Field(description="The least similarity between two of the group.")


class ConsolidateResult(BaseModel):
    """What `consolidate` merged, or would merge with dry_run."""

    strategy: str
    groups_found: int
    memories_affected: int = Field(description="Memories in the groups, kept ones included.")
    memories_after: int = Field(description="Memories in the scope afterwards.")
    consolidated: list[ConsolidatedGroup]
    skipped: list[str] = Field(description="Groups left alone, and why.")
    dry_run: bool


#: Skipped sentences listed in an extract result (all are counted).
SKIPS_LISTED = 100


class ExtractedItem(BaseModel):
    """A memory `extract` stored."""

    id: str
    content: str = Field(description="The whole sentence, after its speaker's name if any.")
    type: str = Field(description="fact, decision, preference or insight.")
    importance: float
    source_snippet: str = Field(description="The line of the text it came from.")
    line: int = Field(description="That line's number in the text (1 for the first).")


class SkippedSentence(BaseModel):
    """A sentence `extract` did not store, and why."""

    text: str
    reason: str
    line: int


class ExtractResult(BaseModel):
    """What `extract` found in a text."""

    extracted: list[ExtractedItem]
    total_extracted: int
    skipped: int = Field(description="Sentences not stored (questions, reactions, duplicates...).")
    skipped_items: list[SkippedSentence] = Field(description=f"The first {SKIPS_LISTED}.")
    text_length: int

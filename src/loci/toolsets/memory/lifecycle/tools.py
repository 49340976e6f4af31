"""The lifecycle tools of the `memory` toolset: keeping memories healthy (reinforce, decay,
consolidate, extract)."""

from typing import Annotated, Any, Literal

from pydantic import Field

from loci.faces.mcp.arguments import ADDITIVE, DESTRUCTIVE
from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings
from loci.toolsets.memory.lifecycle.models import (
    ConsolidateResult,
    DecayResult,
    ExtractResult,
    ReinforceResult,
)
from loci.toolsets.memory.tools import MemoryId, Namespace

Scope = Annotated[Namespace | None, Field(description="Only this namespace (default: all).")]
DryRun = Annotated[bool, Field(description="Say what would change, change nothing.")]


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the lifecycle tools to `server`."""
    del settings

    def reinforce(
        memory_id: MemoryId,
        boost: Annotated[float, Field(gt=0.0, le=1.0, description="Added to importance.")] = 0.1,
        max_importance: Annotated[
            float, Field(ge=0.0, le=1.0, description="Importance is not raised past this.")
        ] = 1.0,
    ) -> ReinforceResult:
        """Raise a memory's importance because it proved useful (never above max_importance;
        never lowers it). Recall never changes importance by itself."""
        return provider.call(
            lambda app: app.reinforcement.reinforce(memory_id, boost, max_importance)
        )

    def decay(
        strategy: Annotated[
            Literal["time", "access", "combined"],
            Field(
                description="time: idle since created; access: idle since last used; combined: "
                "idle since last used, slower for memories used often."
            ),
        ] = "combined",
        decay_rate: Annotated[
            float, Field(ge=0.0, le=1.0, description="Share of importance lost per idle month.")
        ] = 0.1,
        min_importance: Annotated[
            float, Field(ge=0.0, le=1.0, description="Importance never decays below this.")
        ] = 0.05,
        namespace: Scope = None,
        dry_run: DryRun = False,
    ) -> DecayResult:
        """Lower the importance of memories left idle, for the time since they were last used
        or last decayed (so running it twice changes nothing the second time)."""
        return provider.call(
            lambda app: app.decay.decay(strategy, decay_rate, min_importance, namespace, dry_run)
        )

    def consolidate(
        similarity_threshold: Annotated[
            float,
            Field(
                ge=0.5,
                le=1.0,
                description="How alike two memories must be (meaning or spelling), sharing "
                "most of their words.",
            ),
        ] = 0.9,
        namespace: Scope = None,
        strategy: Annotated[
            Literal["keep_newest", "keep_oldest", "merge"],
            Field(
                description="merge: one memory with every distinct sentence, all tags, the "
                "highest importance; keep_newest / keep_oldest: that one's text, all tags."
            ),
        ] = "merge",
        dry_run: DryRun = False,
    ) -> ConsolidateResult:
        """Find near-duplicate memories (case, punctuation, a changed word, reordered
        sentences) and make each group one memory. Groups never chain; conversation turns are
        never merged; the ids merged away keep resolving to the memory that remains."""
        return provider.call(
            lambda app: app.consolidation.consolidate(
                similarity_threshold, namespace, strategy, dry_run
            )
        )

    def extract(
        text: Annotated[
            str,
            Field(
                min_length=1,
                description="A conversation (lines may start with 'Speaker: '), notes or a "
                "meeting record.",
            ),
        ],
        namespace: Namespace = "default",
        min_importance: Annotated[
            float, Field(ge=0.0, le=1.0, description="Store sentences at least this important.")
        ] = 0.3,
        types: Annotated[
            list[Literal["fact", "decision", "preference", "insight"]],
            Field(min_length=1, max_length=4, description="The kinds of memory to keep."),
        ] = ["fact", "decision", "preference", "insight"],  # noqa: B006 - never mutated
    ) -> ExtractResult:
        """Store what is worth remembering in a text: each sentence that tells a fact,
        decision, preference or insight, whole and with its speaker. Questions, reactions,
        uncertain recall ("I don't remember...") and near-duplicates of stored memories are
        skipped, each with the reason."""
        return provider.call(
            lambda app: app.extraction.extract(text, namespace, min_importance, types)
        )

    server.add_tool(
        reinforce, title="Reinforce a memory", annotations=ADDITIVE, structured_output=True
    )
    server.add_tool(
        decay, title="Decay idle memories", annotations=DESTRUCTIVE, structured_output=True
    )
    server.add_tool(
        consolidate,
        title="Merge near-duplicate memories",
        annotations=DESTRUCTIVE,
        structured_output=True,
    )
    server.add_tool(
        extract, title="Extract memories from text", annotations=ADDITIVE, structured_output=True
    )

"""How the story toolset's service is built from the engine."""

from __future__ import annotations

from loci.app import Core
from loci.token_count import BpeCounter
from loci.toolsets.story import passage_keywords
from loci.toolsets.story.graph import SqliteGraph
from loci.toolsets.story.mentions import Extractor
from loci.toolsets.story.models import StoryLimits
from loci.toolsets.story.service import StoryService


def build(core: Core) -> StoryService:
    """The service, with the passages' keyword index of the store's engine."""
    settings = core.settings
    return StoryService(
        core.db,
        core.engine,
        BpeCounter(settings.token_encoding),
        Extractor(),
        SqliteGraph(),
        StoryLimits(max_input_bytes=settings.story_max_input_bytes),
        passage_keywords.for_store(None if core.postgres is None else core.postgres.postings),
    )

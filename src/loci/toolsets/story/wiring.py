"""How the story toolset's service is built from the engine."""

from __future__ import annotations

from loci.app import Core
from loci.token_count import BpeCounter
from loci.toolsets.story.graph import SqliteGraph
from loci.toolsets.story.mentions import Extractor
from loci.toolsets.story.models import StoryLimits
from loci.toolsets.story.service import StoryService


def build(core: Core) -> StoryService:
    """The service, with the passages' keyword index the store was opened with."""
    settings = core.settings
    return StoryService(
        core.db,
        core.engine,
        BpeCounter(settings.token_encoding),
        Extractor(),
        SqliteGraph(),
        StoryLimits(max_input_bytes=settings.story_max_input_bytes),
        core.opened.passage_keywords,
    )

"""How the context toolset's service is built from the engine."""

from __future__ import annotations

from loci.app import Core
from loci.toolsets.context.service import ContextLimits, ContextService
from loci.toolsets.memory.service import MemoryService


def build(core: Core) -> ContextService:
    """The service: context files kept in the data folder, searchable as memories."""
    settings = core.settings
    return ContextService(
        core.db,
        MemoryService(core.db, core.engine),
        settings.home,
        ContextLimits(settings.context_max_bytes, settings.context_max_attempts),
    )

"""How the memory toolset's services are built from the engine."""

from __future__ import annotations

from loci import toolsets as registry
from loci.app import Core
from loci.toolsets.memory.browsing import MemoryBrowser
from loci.toolsets.memory.catalog import CatalogService
from loci.toolsets.memory.conversations.chat_imports import ChatImportService
from loci.toolsets.memory.conversations.importer import ConversationService
from loci.toolsets.memory.editing import MemoryEditor
from loci.toolsets.memory.facts.contradictions import Detector
from loci.toolsets.memory.facts.service import FactService
from loci.toolsets.memory.lifecycle.consolidate import ConsolidateService
from loci.toolsets.memory.lifecycle.decay import DecayService
from loci.toolsets.memory.lifecycle.extract import ExtractService
from loci.toolsets.memory.lifecycle.reinforce import ReinforceService
from loci.toolsets.memory.parts import MemoryParts
from loci.toolsets.memory.service import MemoryService
from loci.toolsets.memory.spatial.journey import JourneyService
from loci.toolsets.memory.spatial.regions import RegionsService
from loci.toolsets.memory.spatial.visualize import VisualizeService
from loci.toolsets.memory.spatial.wander import WanderService
from loci.toolsets.memory.transfer import TransferService


def build(core: Core) -> MemoryParts:
    """The services, over `core`'s engine."""
    engine, db, settings = core.engine, core.db, core.settings
    home = settings.home
    memory, regions = MemoryService(db, engine), RegionsService(db)
    return MemoryParts(
        memory=memory,
        browser=MemoryBrowser(db),
        editor=MemoryEditor(db, engine),
        catalog=CatalogService(db, engine, lambda: registry.orphaned_files(db, home)),
        transfer=TransferService(db, engine),
        conversations=ConversationService(memory, db),
        chat_imports=ChatImportService(
            memory, db, settings.import_max_bytes, settings.max_content_bytes
        ),
        journeys=JourneyService(db, engine),
        regions=regions,
        wanderer=WanderService(db, engine, regions, core.settings.max_content_bytes),
        maps=VisualizeService(regions),
        reinforcement=ReinforceService(db),
        decay=DecayService(db),
        consolidation=ConsolidateService(db, engine),
        extraction=ExtractService(db, engine, memory),
        facts=FactService(db, engine, memory, Detector(db, engine)),
    )

"""The memory toolset's services, as the app holds them."""

from __future__ import annotations

from dataclasses import dataclass

from loci.toolsets.memory.browsing import MemoryBrowser
from loci.toolsets.memory.catalog import CatalogService
from loci.toolsets.memory.conversations.chat_imports import ChatImportService
from loci.toolsets.memory.conversations.importer import ConversationService
from loci.toolsets.memory.editing import MemoryEditor
from loci.toolsets.memory.facts.service import FactService
from loci.toolsets.memory.lifecycle.consolidate import ConsolidateService
from loci.toolsets.memory.lifecycle.decay import DecayService
from loci.toolsets.memory.lifecycle.extract import ExtractService
from loci.toolsets.memory.lifecycle.reinforce import ReinforceService
from loci.toolsets.memory.service import MemoryService
from loci.toolsets.memory.spatial.journey import JourneyService
from loci.toolsets.memory.spatial.regions import RegionsService
from loci.toolsets.memory.spatial.visualize import VisualizeService
from loci.toolsets.memory.spatial.wander import WanderService
from loci.toolsets.memory.transfer import TransferService


@dataclass(frozen=True)
class MemoryParts:
    """The memory toolset's services."""

    memory: MemoryService
    browser: MemoryBrowser
    editor: MemoryEditor
    catalog: CatalogService
    transfer: TransferService
    conversations: ConversationService
    chat_imports: ChatImportService
    journeys: JourneyService
    regions: RegionsService
    wanderer: WanderService
    maps: VisualizeService
    reinforcement: ReinforceService
    decay: DecayService
    consolidation: ConsolidateService
    extraction: ExtractService
    facts: FactService

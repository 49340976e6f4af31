"""The composition root: builds every service from the settings, and closes them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, TypeVar

from loci import toolsets as registry
from loci.access.tokens import AccessTokens
from loci.engine.embedding import Embedder
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.engine.search.engine import Indexes, Limits, MemoryEngine
from loci.errors import StorageUnavailableError
from loci.settings import Settings
from loci.storage.databases.db import Database
from loci.storage.databases.receipts import Receipts
from loci.storage.files import private_folder, storage_errors
from loci.storage.indexes.derived import DerivedIndex
from loci.storage.indexes.facets.mirror import MemoryFacets
from loci.storage.indexes.keywords.mirror import KeywordMirror
from loci.storage.indexes.keywords.protocol import KeywordIndex, MirroredKeywords, SqlKeywords
from loci.storage.indexes.passages.in_process import PassageIndex
from loci.storage.indexes.vectors.embedded import FASTSCAN_FROM, EmbeddedIndex
from loci.storage.indexes.vectors.memory_vectors import MemoryVectors
from loci.storage.memory_tables.memories import MIGRATING_FROM, get_meta
from loci.store import PostgresParts, location, open_database

if TYPE_CHECKING:
    from loci.toolsets.checkpoints.maintenance import CheckpointMaintenance
    from loci.toolsets.checkpoints.parts import CheckpointParts
    from loci.toolsets.checkpoints.service import CheckpointService
    from loci.toolsets.context.service import ContextService
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
    from loci.toolsets.memory.parts import MemoryParts
    from loci.toolsets.memory.service import MemoryService
    from loci.toolsets.memory.spatial.journey import JourneyService
    from loci.toolsets.memory.spatial.regions import RegionsService
    from loci.toolsets.memory.spatial.visualize import VisualizeService
    from loci.toolsets.memory.spatial.wander import WanderService
    from loci.toolsets.memory.transfer import TransferService
    from loci.toolsets.story.service import StoryService

T = TypeVar("T")


@dataclass(frozen=True)
class Core:
    """What every toolset's services are built from (its `Toolset.build`): the settings, the
    database, what searching a PostgreSQL store needs (None on SQLite), and the engine."""

    settings: Settings
    db: Database
    postgres: PostgresParts | None
    engine: MemoryEngine


@dataclass
class App:
    """Everything a front end (MCP server, CLI, tests) talks to: the engine's parts, and each
    toolset's services (`parts`, by toolset name), which the properties below name for the
    toolsets loci ships."""

    settings: Settings
    db: Database
    receipts: Receipts
    access: AccessTokens
    embedder: Embedder
    engine: MemoryEngine
    parts: dict[str, object]

    def part(self, toolset: str, kind: type[T]) -> T:
        """What `toolset`'s `build` made, checked to be a `kind`."""
        found = self.parts[toolset]
        if not isinstance(found, kind):
            raise TypeError(f"toolset {toolset!r} built a {type(found).__name__}, not {kind}")
        return found

    def close(self) -> None:
        """Stop the worker thread and release the database connections."""
        self.engine.close()

    def _memory(self) -> MemoryParts:
        from loci.toolsets.memory.parts import MemoryParts

        return self.part("memory", MemoryParts)

    def _checkpoints(self) -> CheckpointParts:
        from loci.toolsets.checkpoints.parts import CheckpointParts

        return self.part("checkpoints", CheckpointParts)

    @property
    def memory(self) -> MemoryService:
        """The memory toolset's memory service."""
        return self._memory().memory

    @property
    def browser(self) -> MemoryBrowser:
        """The memory toolset's browser service."""
        return self._memory().browser

    @property
    def editor(self) -> MemoryEditor:
        """The memory toolset's editor service."""
        return self._memory().editor

    @property
    def catalog(self) -> CatalogService:
        """The memory toolset's catalog service."""
        return self._memory().catalog

    @property
    def transfer(self) -> TransferService:
        """The memory toolset's transfer service."""
        return self._memory().transfer

    @property
    def conversations(self) -> ConversationService:
        """The memory toolset's conversations service."""
        return self._memory().conversations

    @property
    def chat_imports(self) -> ChatImportService:
        """The memory toolset's importer of other apps' chat exports."""
        return self._memory().chat_imports

    @property
    def journeys(self) -> JourneyService:
        """The memory toolset's journeys service."""
        return self._memory().journeys

    @property
    def regions(self) -> RegionsService:
        """The memory toolset's regions service."""
        return self._memory().regions

    @property
    def wanderer(self) -> WanderService:
        """The memory toolset's wanderer service."""
        return self._memory().wanderer

    @property
    def maps(self) -> VisualizeService:
        """The memory toolset's maps service."""
        return self._memory().maps

    @property
    def reinforcement(self) -> ReinforceService:
        """The memory toolset's reinforcement service."""
        return self._memory().reinforcement

    @property
    def decay(self) -> DecayService:
        """The memory toolset's decay service."""
        return self._memory().decay

    @property
    def consolidation(self) -> ConsolidateService:
        """The memory toolset's consolidation service."""
        return self._memory().consolidation

    @property
    def extraction(self) -> ExtractService:
        """The memory toolset's extraction service."""
        return self._memory().extraction

    @property
    def facts(self) -> FactService:
        """The memory toolset's facts in time: supersede, invalidate, conflicts."""
        return self._memory().facts

    @property
    def checkpoints(self) -> CheckpointService:
        """The checkpoints toolset's service."""
        return self._checkpoints().checkpoints

    @property
    def checkpoint_maintenance(self) -> CheckpointMaintenance:
        """The checkpoints toolset's maintenance (quotas, sweeps)."""
        return self._checkpoints().maintenance

    @property
    def context(self) -> ContextService:
        """The context toolset's service."""
        from loci.toolsets.context.service import ContextService

        return self.part("context", ContextService)

    @property
    def story(self) -> StoryService:
        """The story toolset's service."""
        from loci.toolsets.story.service import StoryService

        return self.part("story", StoryService)


def build_app(
    settings: Settings, embedder: Embedder | None = None, *, long_lived: bool = True
) -> App:
    """Wire the engine for `settings`, then each toolset of the registry from it; `embedder`
    replaces the configured model (tests share one). `long_lived=False` is for a process that
    answers one query at most: it builds nothing that only pays off over many searches (see
    `derived_indexes`)."""
    with storage_errors(settings.home, "create the data folder", "set LOCI_HOME to a folder"):
        private_folder(settings.home)
    limit_blas_threads()
    receipts = Receipts(timedelta(hours=settings.idempotency_hours))
    model = embedder or make_embedder(settings)
    opened = open_database(
        location(settings),
        settings.busy_timeout_seconds,
        claims=(receipts.claim_pending,),  # a keyed write's receipt commits with it
    )
    db = opened.db
    if opened.postgres is None:
        indexes = derived_indexes(settings, model, long_lived)
    else:
        indexes = postgres_indexes(opened.postgres, model)
    refuse_unfinished_copy(db)
    engine = MemoryEngine(db, model, indexes, limits_from(settings))
    core = Core(settings, db, opened.postgres, engine)
    return App(
        settings=settings,
        db=db,
        receipts=receipts,
        access=AccessTokens(db),
        embedder=model,
        engine=engine,
        parts={toolset.name: toolset.built(core) for toolset in registry.TOOLSETS},
    )


def refuse_unfinished_copy(db: Database) -> None:
    """Close `db` and refuse it if `loci migrate` stopped before verifying its copy there:
    half a store would answer as a whole one (and any use would change what the copy is
    verified against)."""
    with db.locked() as conn:
        source = get_meta(conn, MIGRATING_FROM)
    if source is None:
        return
    db.close()
    raise StorageUnavailableError(
        f"{db.location} holds an unfinished copy of {source}: `loci migrate` stopped before "
        "it was verified. Run the same `loci migrate` again to finish it; loci does not use "
        "the store until then.",
        source=source,
    )


def derived_indexes(settings: Settings, model: Embedder, long_lived: bool) -> Indexes:
    """The indexes a process keeps beside the store. A process that answers one query at
    most keeps no keyword mirror (its keyword searches go to FTS5) and builds no fast-scan
    codes: reading them would cost more than the search they speed up."""
    dimensions = model.identity.dimensions
    vectors = EmbeddedIndex(
        dimensions,
        kernel=settings.vector_kernel,
        fast_scan_from=FASTSCAN_FROM if long_lived else None,
    )
    passages, facets = PassageIndex(dimensions), MemoryFacets()
    followed: list[DerivedIndex] = [MemoryVectors(vectors, dimensions), passages, facets]
    keywords: KeywordIndex = SqlKeywords()
    if long_lived:
        mirror = KeywordMirror()
        keywords = MirroredKeywords(mirror)
        followed.append(mirror)
    return Indexes(vectors, passages, facets, keywords, tuple(followed))


def postgres_indexes(store: PostgresParts, model: Embedder) -> Indexes:
    """The indexes that search a PostgreSQL store: vectors (of memories and of their
    passages), keywords and filters, all in the database: a server holds no copy of it, only
    the vectors of small namespaces and of few passages, which `IndexSync` keeps in step."""
    from loci.storage.indexes.passages.postgres import PgPassageIndex
    from loci.storage.indexes.vectors.postgres import PgVectorIndex

    dimensions = model.identity.dimensions
    vectors, passages = PgVectorIndex(store.db, dimensions), PgPassageIndex(store.db, dimensions)
    held = (vectors.held, passages.held)  # small namespaces and few passages (decision 0004)
    return Indexes(vectors, passages, None, store.memory_keywords, held, in_database=True)


def limit_blas_threads() -> None:
    """Run numpy's matrix products on one thread.

    loci's products are small (one query against the rows of a scan or a pool), and numpy's
    OpenBLAS keeps its idle threads spinning after each one, on the cores the embedding model
    needs next, and slow the query's embedding."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def make_embedder(settings: Settings) -> Embedder:
    """The embedder the settings name (loaded lazily)."""
    return OnnxMiniLM(threads=settings.embedding_threads)


def limits_from(settings: Settings) -> Limits:
    """The service limits carried by the settings."""
    return Limits(
        max_content_bytes=settings.max_content_bytes,
        max_metadata_bytes=settings.max_metadata_bytes,
        max_batch_size=settings.max_batch_size,
        max_recall_limit=settings.max_recall_limit,
        default_namespace=settings.default_namespace,
        hybrid_alpha=settings.hybrid_alpha,
    )

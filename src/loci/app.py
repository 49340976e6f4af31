"""The composition root: builds every service from the settings, and closes them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

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
from loci.token_count import BpeCounter
from loci.toolsets.checkpoints.blob_table import TableBlobs
from loci.toolsets.checkpoints.blobs import Blobs, BlobStore
from loci.toolsets.checkpoints.maintenance import CheckpointMaintenance
from loci.toolsets.checkpoints.service import CheckpointLimits, CheckpointService
from loci.toolsets.context.service import ContextLimits, ContextService
from loci.toolsets.memory.browsing import MemoryBrowser
from loci.toolsets.memory.catalog import CatalogService
from loci.toolsets.memory.conversations.importer import ConversationService
from loci.toolsets.memory.editing import MemoryEditor
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
from loci.toolsets.story.graph import SqliteGraph
from loci.toolsets.story.mentions import Extractor
from loci.toolsets.story.models import StoryLimits
from loci.toolsets.story.service import StoryService


@dataclass
class App:
    """Everything a front end (MCP server, CLI, tests) talks to."""

    settings: Settings
    db: Database
    receipts: Receipts
    access: AccessTokens
    embedder: Embedder
    engine: MemoryEngine
    memory: MemoryService
    browser: MemoryBrowser
    editor: MemoryEditor
    catalog: CatalogService
    transfer: TransferService
    conversations: ConversationService
    context: ContextService
    checkpoints: CheckpointService
    checkpoint_maintenance: CheckpointMaintenance
    story: StoryService
    journeys: JourneyService
    regions: RegionsService
    wanderer: WanderService
    maps: VisualizeService
    reinforcement: ReinforceService
    decay: DecayService
    consolidation: ConsolidateService
    extraction: ExtractService

    def close(self) -> None:
        """Stop the worker thread and release the database connections."""
        self.engine.close()


def build_app(
    settings: Settings, embedder: Embedder | None = None, *, long_lived: bool = True
) -> App:
    """Wire the services for `settings`; `embedder` replaces the configured model (tests share
    one). `long_lived=False` is for a process that answers one query at most: it builds
    nothing that only pays off over many searches (see `derived_indexes`)."""
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
    db, passage_keywords = opened.db, opened.passage_keywords
    if opened.postgres is None:
        indexes = derived_indexes(settings, model, long_lived)
        blobs: Blobs = BlobStore(settings.home / "checkpoints" / "blobs", root=settings.home)
    else:
        indexes = postgres_indexes(opened.postgres, model)
        blobs = TableBlobs(db)
    refuse_unfinished_copy(db)
    engine = MemoryEngine(db, model, indexes, limits_from(settings))
    memory = MemoryService(engine)
    checkpoints = CheckpointService(
        db,
        blobs,
        settings.home,
        checkpoint_limits(settings),
        settings.encryption_key_file,
    )
    regions = RegionsService(engine)
    return App(
        settings=settings,
        db=db,
        receipts=receipts,
        access=AccessTokens(db),
        embedder=model,
        engine=engine,
        memory=memory,
        browser=MemoryBrowser(engine),
        editor=MemoryEditor(engine),
        catalog=CatalogService(engine, lambda: orphaned_files(db, settings.home)),
        transfer=TransferService(engine),
        conversations=ConversationService(memory, db),
        context=ContextService(
            db,
            memory,
            settings.home,
            ContextLimits(settings.context_max_bytes, settings.context_max_attempts),
        ),
        checkpoints=checkpoints,
        checkpoint_maintenance=CheckpointMaintenance(db, checkpoints),
        story=StoryService(
            engine,
            BpeCounter(settings.token_encoding),
            Extractor(),
            SqliteGraph(),
            StoryLimits(max_input_bytes=settings.story_max_input_bytes),
            passage_keywords,
        ),
        journeys=JourneyService(engine),
        regions=regions,
        wanderer=WanderService(engine, regions, settings.max_content_bytes),
        maps=VisualizeService(regions),
        reinforcement=ReinforceService(engine),
        decay=DecayService(engine),
        consolidation=ConsolidateService(engine),
        extraction=ExtractService(engine, memory),
    )


def orphaned_files(db: Database, home: Path) -> list[str]:
    """One sentence per kind of file in the data folder that `db` has no record of at all
    (a database emptied or replaced since they were written)."""
    return [line for toolset in registry.TOOLSETS for line in toolset.orphaned_files(db, home)]


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
    passages), keywords and filters, all in the database: a server holds no copy of it."""
    from loci.storage.indexes.passages.postgres import PgPassageIndex
    from loci.storage.indexes.vectors.postgres import PgVectorIndex

    dimensions = model.identity.dimensions
    vectors, passages = PgVectorIndex(store.db, dimensions), PgPassageIndex(store.db, dimensions)
    return Indexes(vectors, passages, None, store.memory_keywords, ())


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


def checkpoint_limits(settings: Settings) -> CheckpointLimits:
    """The checkpoint limits carried by the settings."""
    return CheckpointLimits(
        token_budget=settings.checkpoint_token_budget,
        max_context_bytes=settings.checkpoint_max_context_bytes,
        max_per_session=settings.checkpoint_max_per_session,
        max_total_bytes=settings.checkpoint_max_total_bytes,
        zstd_level=settings.checkpoint_zstd_level,
        encryption=settings.encryption == "enabled",
    )

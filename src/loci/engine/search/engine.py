"""What every memory service shares beside the database: the embedding model, and the derived
indexes kept in step with the store.

The engine does not hand out its parts: a service is given the database it writes in, and asks
the engine in words of what it wants (embed these texts, check the store's model, the vector
index brought up to date, "this process wrote memories"). Only the search pipeline
(`loci.engine.search.pipeline`) reads `indexes`, the indexes that answer a search."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from loci.engine.embedding import Embedder
from loci.engine.search import passage_spans as passages
from loci.engine.search.signals import DEFAULT, Profile
from loci.engine.sequences.speakers import ActorDirectory, Speakers
from loci.errors import ModelMismatchError, NotFoundError
from loci.heap import release_free_memory
from loci.storage.databases.db import Connection, Database
from loci.storage.indexes.derived import DerivedIndex, Progress
from loci.storage.indexes.facets.mirror import MemoryFacets
from loci.storage.indexes.keywords.protocol import KeywordIndex
from loci.storage.indexes.passages.in_process import PassageSearch
from loci.storage.indexes.sync import IndexSync, Then
from loci.storage.indexes.vectors.protocol import VectorIndex
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables.passages import NewPassage

T = TypeVar("T")

MODEL_KEY = "embedding_model"
#: Texts embedded in one call when storing many: the embedder sorts a call's texts by length,
#: so a larger window pads less. Chat turns (LoCoMo, 2,760): windows of 100 embedded 80-88
#: texts/s, of 1,024 116/s, all at once 123/s.
EMBED_WINDOW = 1024
DIMENSIONS_KEY = "embedding_dimensions"


@dataclass(frozen=True)
class Indexes:
    """The derived indexes of a process, built in `build_app`: those searches ask, and every
    one `IndexSync` keeps in step with the store (`followed`)."""

    vectors: VectorIndex
    passages: PassageSearch
    facets: MemoryFacets | None  # None: filters go to the database as SQL
    keywords: KeywordIndex
    followed: tuple[DerivedIndex, ...]
    #: Whether the database searches (PostgreSQL): filters applied as SQL, and a vector search
    #: run beside the keyword one (each bringing what the process holds up to date first).
    in_database: bool = False


@dataclass(frozen=True)
class Limits:
    """The bounds and defaults the memory services enforce (from Settings)."""

    max_content_bytes: int = 64 * 1024
    max_metadata_bytes: int = 16 * 1024
    max_batch_size: int = 100
    max_recall_limit: int = 100
    default_namespace: str = "default"
    hybrid_alpha: float = 0.5
    profile: Profile = DEFAULT


#: Texts embedded at once from which the engine returns freed memory to the system afterwards.
RELEASE_AFTER_TEXTS = 16


class MemoryEngine:
    """The store, the model and the index, with the checks that keep them consistent."""

    def __init__(
        self,
        db: Database,
        embedder: Embedder,
        indexes: Indexes,
        limits: Limits,
    ) -> None:
        self._db = db
        self.embedder = embedder
        self.limits = limits
        self.indexes = indexes
        self._sync = IndexSync(db, indexes.followed)
        self._actors = ActorDirectory(db)
        # Database work that overlaps the embedding of a query, and a second search beside the
        # first on PostgreSQL (threads start lazily).
        self._worker = ThreadPoolExecutor(max_workers=2, thread_name_prefix="loci-search")

    def beside(self, work: Callable[[], T]) -> Future[T]:
        """Run `work` in a worker thread, e.g. while this thread embeds a query."""
        return self._worker.submit(work)

    def close(self) -> None:
        """Stop the worker thread and close the database."""
        self._worker.shutdown(wait=True)
        self._db.close()

    def wrote(self) -> None:
        """Say this process just committed changes of memories: the database's change counter
        misses a process's own writes, so the next search reads the change log all the same."""
        self._sync.note_own_write()

    def catch_up(self, then: Then | None = None) -> None:
        """Bring the derived indexes up to date with every process's writes; then run `then`
        (a filter's mirror reading the fields it lacks) before another refresh can start."""
        self._sync.refresh(then)

    def rebuild_keywords(self, conn: Connection) -> int:
        """Rebuild the keyword index inside `conn`'s write transaction; returns how many
        sequences' documents it holds."""
        return self.indexes.keywords.rebuild(conn)

    def rebuild_indexes(self, progress: Progress | None = None) -> int:
        """Rebuild every derived index from the store (`loci reindex`); returns how many
        vectors the vector index holds after."""
        self._sync.rebuild(progress)
        return self.indexes.vectors.count()

    def warm(self) -> None:
        """Load the passages' index now rather than at the first search."""
        self.indexes.passages.warm()

    def use_indexes(self, indexes: Indexes) -> None:
        """Search with other derived indexes from now on, rebuilt from the store (the
        benchmarks compare an acceleration with the plain version this way)."""
        self.indexes = indexes
        self._sync = IndexSync(self._db, indexes.followed)
        self._sync.rebuild()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed with the configured model (loading it on first use); after a batch, give the
        model's freed buffers back to the system (a query's are too small to bother)."""
        vectors = self.embedder.embed(texts)
        if len(texts) >= RELEASE_AFTER_TEXTS:
            release_free_memory()
        return vectors

    def passages_of(self, texts: Sequence[str]) -> list[list[NewPassage]]:
        """The passages of each text (none for a short one), embedded in one call."""
        cuts = [passages.spans(text) for text in texts]
        pieces = [
            text[start:end] for text, spans in zip(texts, cuts, strict=True) for start, end in spans
        ]
        if not pieces:
            return [[] for _ in texts]
        vectors = iter(self.embed(pieces))
        return [
            [NewPassage(start, end, vector_bytes(next(vectors))) for start, end in spans]
            for spans in cuts
        ]

    def stored_model(self, conn: Connection) -> str | None:
        """The model recorded in the store, or None before the first memory."""
        return sql.get_meta(conn, MODEL_KEY)

    def check_model(self, conn: Connection) -> None:
        """Refuse to mix vectors of two models: the store's model must be the configured one."""
        stored = self.stored_model(conn)
        identity = self.embedder.identity
        if stored is not None and stored != identity.name:
            raise ModelMismatchError(
                f"this store's vectors were made by {stored!r} but loci is configured for "
                f"{identity.name!r}; run `loci reindex` to re-embed every memory with the new model",
                stored_model=stored,
                configured_model=identity.name,
            )

    def record_model(self, conn: Connection) -> None:
        """Write the configured model into the store (inside a write transaction)."""
        identity = self.embedder.identity
        sql.set_meta(conn, MODEL_KEY, identity.name)
        sql.set_meta(conn, DIMENSIONS_KEY, str(identity.dimensions))

    def actors(self, namespaces: frozenset[str] | None) -> Speakers:
        """The actors of the sequences in those namespaces (None: all), as of the last
        refresh: the same object until the memories change."""
        return self._actors.of(namespaces, self._sync.position)

    def index(self) -> VectorIndex:
        """The vector index, brought up to date with every process's writes."""
        self._sync.refresh()
        return self.indexes.vectors


def require_namespace(conn: Connection, name: str) -> None:
    """Raise NotFoundError for an unknown namespace."""
    if not sql.namespace_exists(conn, name):
        raise NotFoundError(f"namespace {name!r} does not exist", namespace=name)


def vector_bytes(vector: npt.NDArray[np.float32]) -> bytes:
    """A vector as the float32 BLOB the store keeps."""
    return np.ascontiguousarray(vector, dtype=np.float32).tobytes()

"""Core memory operations: remember, recall, nearby, forget."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from loci import fields
from loci.engine.search import pipeline
from loci.engine.search.engine import EMBED_WINDOW, MemoryEngine, require_namespace, vector_bytes
from loci.engine.search.filters import CompiledFilter, compile_filter
from loci.errors import InvalidInputError, LociError, NotFoundError
from loci.storage.databases.db import Connection, Database
from loci.storage.indexes.derived import Progress
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import passages
from loci.storage.memory_tables.change_log import prune_log
from loci.storage.memory_tables.passages import NewPassage
from loci.timeutil import now
from loci.toolsets.memory import neighbours, reuse, validation
from loci.toolsets.memory.hits import asked_time, load_hits
from loci.toolsets.memory.models import (
    ForgetBatchResult,
    ForgetResult,
    ItemError,
    Memory,
    MemoryDraft,
    NearbyResult,
    RecallResult,
    RememberBatchResult,
    RememberResult,
)
from loci.toolsets.memory.rows import row_to_memory
from loci.toolsets.memory.validation import CheckedDraft, content_hash

#: How many candidates each ranking contributes to fusion, per result asked for.
CANDIDATES_PER_RESULT = 4
MIN_CANDIDATES = 50
#: `forget` lists at most this many ids (the count is always exact).
MAX_LISTED_IDS = 1000


@dataclass(frozen=True)
class Embedded:
    """A memory draft that passed its checks, with its vector."""

    draft: CheckedDraft
    vector: np.ndarray[Any, Any]


class MemoryService:
    """Store, find and delete memories."""

    def __init__(self, db: Database, engine: MemoryEngine) -> None:
        self._db = db
        self._engine = engine
        self._limits = engine.limits

    def remember(
        self, draft: MemoryDraft, after: Callable[[Connection, int], None] | None = None
    ) -> RememberResult:
        """Store one memory and return its new id; `after(conn, seq)` runs in the same
        transaction once it is stored."""
        return self.store_embedded(self.embedded(draft), after)

    def embedded(self, draft: MemoryDraft) -> Embedded:
        """`draft` checked and embedded, ready for `store_embedded` (a caller may look at it
        in between: `facts` looks for the memories it contradicts)."""
        checked = self._check(draft)
        return Embedded(checked, self._engine.embed([checked.content])[0])

    def store_embedded(
        self, ready: Embedded, after: Callable[[Connection, int], None] | None = None
    ) -> RememberResult:
        """Store a memory `embedded` made; `after(conn, seq)` as in `remember`."""
        then = None if after is None else lambda conn, seqs: after(conn, seqs[0])
        ids, stamp = self._store([ready.draft], ready.vector.reshape(1, -1), after=then)
        checked = ready.draft
        return RememberResult(
            id=ids[0], content=checked.content, namespace=checked.namespace, created_at=stamp
        )

    def remember_batch(
        self, drafts: Sequence[MemoryDraft | InvalidInputError]
    ) -> RememberBatchResult:
        """Store many memories in one transaction; invalid items are reported by index, not
        stored (an item given as an error is one the caller could not read)."""
        if not 1 <= len(drafts) <= self._limits.max_batch_size:
            raise InvalidInputError(
                f"memories must hold 1-{self._limits.max_batch_size} items, got {len(drafts)}",
                field="memories",
            )
        valid: list[CheckedDraft] = []
        errors: list[ItemError] = []
        for index, draft in enumerate(drafts):
            checked = self._checked_or_error(draft)
            if isinstance(checked, LociError):
                errors.append(ItemError(index=index, type=checked.code, message=checked.message))
            else:
                valid.append(checked)
        ids: list[str] = []
        if valid:
            vectors = self._engine.embed([item.content for item in valid])
            ids, _ = self._store(valid, vectors)
        return RememberBatchResult(stored=len(ids), ids=ids, failed=len(errors), errors=errors)

    def remember_all(
        self, drafts: Sequence[MemoryDraft], progress: Progress | None = None
    ) -> list[str]:
        """Store any number of memories, all checked before the first is written.

        Raises InvalidInputError naming the first bad item and stores nothing. Texts are
        embedded EMBED_WINDOW at a time; writes go in transactions of `max_batch_size`,
        reporting `progress(done, total)` after each.
        """
        checked: list[CheckedDraft] = []
        for index, draft in enumerate(drafts):
            try:
                checked.append(self._check(draft))
            except InvalidInputError as exc:
                raise InvalidInputError(
                    f"item {index}: {exc.message}", index=index, **exc.details
                ) from None
        ids: list[str] = []
        step = self._limits.max_batch_size
        for window_start in range(0, len(checked), EMBED_WINDOW):
            window = checked[window_start : window_start + EMBED_WINDOW]
            vectors = self._engine.embed([item.content for item in window])
            for start in range(0, len(window), step):
                ids += self._store(window[start : start + step], vectors[start : start + step])[0]
                if progress is not None:
                    progress(len(ids), len(checked))
        return ids

    def remember_embedded(
        self, drafts: Sequence[MemoryDraft], vectors: np.ndarray[Any, Any]
    ) -> list[str]:
        """Store memories the caller embedded already (with this model), in one transaction."""
        return self._store([self._check(d) for d in drafts], vectors)[0] if drafts else []

    def replace(
        self,
        drafts: Sequence[MemoryDraft],
        namespace: str,
        filters: Mapping[str, Any],
        within: Callable[[Connection], None] | None = None,
    ) -> list[str]:
        """Swap the memories of `namespace` matching `filters` for `drafts`, atomically.

        Drafts are checked and embedded first (text the old memories already hold keeps its
        vector); then one transaction deletes the old memories, runs `within(conn)` (the
        caller's own writes, e.g. the document the memories index) and inserts the new ones.
        If any part fails, nothing changes.
        """
        checked = [self._check(draft) for draft in drafts]
        compiled = compile_filter(filters, fields.namespace(namespace), self._db.engine)
        with self._db.locked() as conn:
            self._engine.check_model(conn)
            known = sql.embeddings_by_hash(conn, compiled.sql, compiled.params)
            known_parts = passages.by_content(conn, compiled.sql, compiled.params)
        vectors = reuse.vectors_reusing(self._engine, checked, known)
        parts = reuse.passages_reusing(self._engine, checked, known_parts)

        def delete_old(conn: Connection) -> None:
            old = sql.matching_ids(conn, compiled.sql, compiled.params, 2**62)
            sql.delete_ids(conn, old)
            if within is not None:
                within(conn)

        return self._store(checked, vectors, before=delete_old, parts=parts)[0]

    def recall(
        self,
        query: str,
        limit: int = 5,
        namespace: str | None = None,
        filters: Mapping[str, Any] | None = None,
        min_similarity: float = 0.0,
        hybrid_alpha: float | None = None,
        explain: bool = False,
        ahead: pipeline.Ahead | None = None,
        record_access: bool = True,
        as_of: str | None = None,
        include_history: bool = False,
    ) -> RecallResult:
        """Memories matching `query`, best first, ranked by named signals (`signals`); `explain`
        gives each hit's signals; `ahead`: from `embed_query`; `record_access`: count a use.
        What is true now ranks first (`hits`); `as_of` admits only what was true then;
        `include_history` keeps replaced memories beside their successors."""
        query = fields.content(query, self._limits.max_content_bytes, "query")
        limit = fields.bounded_int(limit, 1, self._limits.max_recall_limit, "limit")
        min_similarity = fields.unit_float(min_similarity, "min_similarity")
        alpha = self._limits.hybrid_alpha if hybrid_alpha is None else hybrid_alpha
        alpha = fields.unit_float(alpha, "hybrid_alpha")
        as_of = None if as_of is None else fields.moment(as_of, "as_of")
        compiled = compile_filter(filters, namespace, self._db.engine, as_of)
        depth = max(limit * CANDIDATES_PER_RESULT, MIN_CANDIDATES)
        profile = self._limits.profile.with_alpha(alpha)
        embedded = pipeline.embed_beside(
            self._engine,
            query,
            compiled.namespaces,
            lambda: pipeline.prepare(
                self._db, self._engine, namespace, compiled, alpha < 1.0, depth, query
            ),
            ahead,
            pipeline.search_beside(self._engine, compiled, profile, depth),
        )
        asked = pipeline.Asked(query, embedded.actor, profile, depth, explain)
        ranked = pipeline.ranked(
            self._db, self._engine, embedded.vector, embedded.prepared, asked, embedded.found
        )
        # 0 means "no threshold": unrelated memories can have slightly negative cosines.
        if min_similarity > 0.0:
            ranked = (r for r in ranked if r.similarity >= min_similarity)
        moment = as_of or asked_time(embedded.prepared.periods) or now()
        hits = load_hits(
            self._db, self._engine, ranked, limit, record_access, moment, include_history
        )
        mode = "vector" if alpha == 1.0 else "keyword" if alpha == 0.0 else "hybrid"
        return RecallResult(
            memories=hits,
            total=len(hits),
            mode=mode,
            query_embedding_time_ms=embedded.ms,
            weights=profile.weights() if explain else None,
        )

    def embed_query(
        self, query: str, namespace: str | None = None, filters: Mapping[str, Any] | None = None
    ) -> pipeline.Ahead:
        """Embed `query` for a `recall` to come. Safe while other calls run (it reads only the
        actors' names): a server embeds here, outside the lock that serialises the calls."""
        query = fields.content(query, self._limits.max_content_bytes, "query")
        namespaces = compile_filter(filters, namespace, self._db.engine).namespaces
        return pipeline.embed_ahead(self._engine, query, namespaces)

    def nearby(
        self,
        memory_id: str,
        limit: int = 5,
        exclude_self: bool = True,
        namespace: str | None = None,
    ) -> NearbyResult:
        """The memories closest to a given one in vector space (of `namespace`, which the
        given one must be in, when one is named)."""
        return neighbours.nearby(self._db, self._engine, memory_id, limit, exclude_self, namespace)

    def forget(
        self,
        memory_id: str | None = None,
        filters: Mapping[str, Any] | None = None,
        namespace: str | None = None,
        dry_run: bool = False,
    ) -> ForgetResult:
        """Delete one memory, or every memory matching filters and/or a namespace."""
        if memory_id is None and not filters and namespace is None:
            raise InvalidInputError(
                "give memory_id, filters or namespace to say what to forget", field="memory_id"
            )
        if memory_id is not None:
            memory_id = fields.memory_id(memory_id)
        compiled = compile_filter(filters, namespace, self._db.engine)
        if memory_id is not None:
            compiled.sql = f"({compiled.sql}) AND m.id = ?"
            compiled.params.append(memory_id)
        with self._db.locked() as conn:
            if namespace is not None:
                require_namespace(conn, namespace)
        if dry_run:
            return self._forget_preview(compiled, memory_id)
        with self._db.write() as conn:
            ids = sql.matching_ids(conn, compiled.sql, compiled.params, 2**62)
            if memory_id is not None and not ids:
                raise NotFoundError(f"no memory with id {memory_id}", memory_id=memory_id)
            deleted = sql.delete_ids(conn, ids)
            prune_log(conn)
        self._engine.wrote()
        return ForgetResult(deleted=len(deleted), ids=deleted[:MAX_LISTED_IDS], dry_run=False)

    def forget_batch(self, memory_ids: Sequence[str]) -> ForgetBatchResult:
        """Delete memories by id; unknown ids are reported in `not_found`."""
        if not 1 <= len(memory_ids) <= self._limits.max_batch_size:
            raise InvalidInputError(
                f"memory_ids must hold 1-{self._limits.max_batch_size} ids, got {len(memory_ids)}",
                field="memory_ids",
            )
        ids = list(dict.fromkeys(fields.memory_id(i, "memory_ids") for i in memory_ids))
        with self._db.write() as conn:
            deleted = sql.delete_ids(conn, ids)
            prune_log(conn)
        self._engine.wrote()
        gone = set(deleted)
        missing = [i for i in ids if i not in gone]
        return ForgetBatchResult(
            deleted=len(deleted), failed=len(missing), ids=deleted, not_found=missing
        )

    def warm_up(self) -> None:
        """Load the vector index, and build what its searches use, now rather than in the
        first search."""
        self._engine.index().warm()
        self._engine.warm()

    def indexed_count(self) -> int:
        """How many vectors the (refreshed) index holds."""
        return self._engine.index().count()

    def get(self, memory_id: str) -> Memory:
        """One memory by id."""
        memory_id = fields.memory_id(memory_id)
        with self._db.locked() as conn:
            found = sql.fetch_by_id(conn, memory_id)
        if found is None:
            raise NotFoundError(f"no memory with id {memory_id}", memory_id=memory_id)
        return row_to_memory(found)[1]

    # -- helpers -------------------------------------------------------------------------------

    def _checked_or_error(self, draft: MemoryDraft | InvalidInputError) -> CheckedDraft | LociError:
        try:
            return draft if isinstance(draft, InvalidInputError) else self._check(draft)
        except LociError as exc:
            return exc

    def _check(self, draft: MemoryDraft) -> CheckedDraft:
        limits = self._limits
        return validation.draft(
            draft, limits.max_content_bytes, limits.max_metadata_bytes, limits.default_namespace
        )

    def _store(
        self,
        items: Sequence[CheckedDraft],
        vectors: np.ndarray[Any, Any],
        before: Callable[[Connection], None] | None = None,
        parts: Sequence[Sequence[NewPassage]] | None = None,
        after: Callable[[Connection, list[int]], None] | None = None,
    ) -> tuple[list[str], str]:
        """Insert checked items with their vectors (and passages, embedded here unless given)
        in one transaction (between `before` and `after(conn, seqs)`, in the same
        transaction, if given); (ids, timestamp)."""
        stamp = now()
        if parts is None:
            parts = self._engine.passages_of([item.content for item in items])
        new_rows = [
            sql.NewMemory(
                id=str(uuid.uuid4()),
                content=item.content,
                content_hash=content_hash(item.content),
                namespace=item.namespace,
                tags=item.tags,
                importance=item.importance,
                source=item.source,
                metadata_json=item.metadata_json,
                created_at=stamp,
                updated_at=stamp,
                last_accessed=stamp,
                access_count=0,
                embedding=vector_bytes(vector),
                occurred_at=item.occurred_at,
                placement=item.placement,
                passages=item_parts,
                valid_from=item.valid_from,
                valid_until=item.valid_until,
            )
            for item, vector, item_parts in zip(items, vectors, parts, strict=True)
        ]
        with self._db.write() as conn:
            self._engine.check_model(conn)
            if before is not None:
                before(conn)
            if new_rows:
                self._engine.record_model(conn)
                sql.ensure_namespaces(conn, {row.namespace for row in new_rows}, stamp)
                seqs = sql.insert_memories(conn, new_rows)
                if after is not None:
                    after(conn, seqs)
            prune_log(conn)
        self._engine.wrote()
        return [row.id for row in new_rows], stamp

    def _forget_preview(self, compiled: CompiledFilter, memory_id: str | None) -> ForgetResult:
        with self._db.locked() as conn:
            ids = sql.matching_ids(conn, compiled.sql, compiled.params, 2**62)
        if memory_id is not None and not ids:
            raise NotFoundError(f"no memory with id {memory_id}", memory_id=memory_id)
        return ForgetResult(deleted=len(ids), ids=ids[:MAX_LISTED_IDS], dry_run=True)

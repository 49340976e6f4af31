"""Moving memories in and out: export, import, and re-embedding (reindex)."""

from __future__ import annotations

import uuid
from collections.abc import Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

import numpy as np
from pydantic import ValidationError

from loci import fields
from loci.engine.search.engine import EMBED_WINDOW, MemoryEngine, require_namespace, vector_bytes
from loci.engine.search.filters import compile_filter
from loci.errors import InvalidInputError, LociError, ModelMismatchError
from loci.storage.databases.db import Database
from loci.storage.indexes.derived import Progress
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import validity
from loci.storage.memory_tables.change_log import prune_log
from loci.storage.memory_tables.placements import Placement
from loci.timeutil import format_time, now, parse_time
from loci.toolsets.memory import reindexing, validation
from loci.toolsets.memory.export_files import ExportContent, UnreadableItem, document_parts
from loci.toolsets.memory.models import (
    ExportData,
    ExportedMemory,
    ExportResult,
    ImportResult,
    ItemError,
    SequenceDraft,
    SequencePlace,
)
from loci.toolsets.memory.rows import row_to_memory
from loci.toolsets.memory.validation import content_hash

EXPORT_VERSION = "1.0.0"
#: Memories embedded and committed together during import (see EMBED_WINDOW).
IMPORT_BATCH = EMBED_WINDOW
#: Imported vectors shorter than this are refused: they point nowhere.
MIN_VECTOR_NORM = 1e-6


@dataclass(frozen=True)
class ImportOptions:
    """How to import: where to, whether to skip duplicates, whether to embed again."""

    namespace_override: str | None = None
    skip_duplicates: bool = True
    recompute_vectors: bool = True


@dataclass
class _Pending:
    index: int
    row: sql.NewMemory | None
    vector: list[float] | None
    successor: str | None = None  # the id of the memory that replaced it, in the export


class TransferService:
    """Export, import and reindex the memory store."""

    def __init__(self, db: Database, engine: MemoryEngine) -> None:
        self._db = db
        self._engine = engine

    def export_header(self) -> dict[str, Any]:
        """The fields of an export document other than `memories`."""
        with self._db.locked() as conn:
            model = self._engine.stored_model(conn) or self._engine.embedder.identity.name
        return {
            "version": EXPORT_VERSION,
            "exported_at": now(),
            "embedding_model": model,
            "embedding_dimensions": self._engine.embedder.identity.dimensions,
        }

    def iter_export(
        self, namespace: str | None = None, include_vectors: bool = False, offset: int = 0
    ) -> Generator[ExportedMemory, None, None]:
        """Every memory (of a namespace), oldest first, starting at `offset`. It reads in a
        snapshot of the app's connection: close it before the app if it is not read to the
        end."""
        compiled = compile_filter(None, namespace, self._db.engine)
        with self._db.snapshot() as conn:
            if namespace is not None:
                require_namespace(conn, namespace)
            rows = sql.iter_memories(conn, compiled.sql, compiled.params, include_vectors, offset)
            for row, blob in rows:
                vector = np.frombuffer(blob, dtype=np.float32).tolist() if blob else None
                memory = row_to_memory(row)[1]
                yield ExportedMemory(**memory.model_dump(), vector=vector)

    def export(
        self,
        namespace: str | None = None,
        include_vectors: bool = False,
        offset: int = 0,
        limit: int = 1000,
    ) -> ExportResult:
        """One page of an export, as a document `import_memories` accepts."""
        offset = fields.bounded_int(offset, 0, fields.MAX_COUNT, "offset")
        limit = fields.bounded_int(limit, 1, 100_000, "limit")
        memories: list[ExportedMemory] = []
        more = False
        for memory in self.iter_export(namespace, include_vectors, offset):
            if len(memories) == limit:
                more = True
                break
            memories.append(memory)
        data = ExportData(**self.export_header(), memories=memories)
        size = len(data.model_dump_json().encode("utf-8"))
        next_offset = offset + len(memories) if more else None
        return ExportResult(
            export=data, count=len(memories), size_bytes=size, next_offset=next_offset
        )

    def import_data(
        self, data: Mapping[str, Any], options: ImportOptions, progress: Progress | None = None
    ) -> ImportResult:
        """Import an export document; invalid items are reported, valid ones stored in batches."""
        return self.import_content(document_parts(data), options, progress)

    def import_content(
        self, content: ExportContent, options: ImportOptions, progress: Progress | None = None
    ) -> ImportResult:
        """Import memories as they are read (see `export_files`), a batch at a time."""
        if options.namespace_override is not None:
            fields.namespace(options.namespace_override, "namespace_override")
        if not options.recompute_vectors:
            self._check_exported_model(content.header)
        result = ImportResult(imported=0, skipped_duplicates=0, failed=0, errors=[], ids=[])
        seen: set[tuple[str, str]] = set()
        links: list[tuple[str, str, str]] = []
        done = 0
        for items in _batches(content.memories, IMPORT_BATCH):
            batch = [self._prepare(done + i, item, options, result) for i, item in enumerate(items)]
            stored = self._store_batch(
                [p for p in batch if p.row is not None], options, seen, result
            )
            links += [
                (p.row.id, p.successor, p.row.valid_until)
                for p in stored
                if p.row is not None and p.successor is not None and p.row.valid_until is not None
            ]
            done += len(items)
            if progress is not None:
                progress(done, max(done, content.count))
        self._link(links)
        result.failed = len(result.errors)
        return result

    def _link(self, links: list[tuple[str, str, str]]) -> None:
        """Join each imported memory to the one that replaced it, where both are stored."""
        if not links:
            return
        with self._db.write() as conn:
            for memory_id, successor_id, until in links:
                rows = sql.seqs_of_ids(conn, [memory_id, successor_id])
                if memory_id in rows and successor_id in rows:
                    validity.close(conn, rows[memory_id], until, rows[successor_id])

    def reindex(self, force: bool = False, progress: Progress | None = None) -> dict[str, Any]:
        """Re-embed every memory if the model changed (or `force`), and any damaged vector;
        then rebuild the derived data: the keyword index, the sequences'
        documents and the vector index (see `reindexing`)."""
        return reindexing.reindex(self._db, self._engine, force, progress)

    def _check_exported_model(self, document: Mapping[str, Any]) -> None:
        exported = document.get("embedding_model")
        configured = self._engine.embedder.identity.name
        if exported != configured:
            raise ModelMismatchError(
                f"the export's vectors come from {exported!r}, loci uses {configured!r}; "
                "import with recompute_vectors=true",
                exported_model=exported,
                configured_model=configured,
            )

    def _prepare(
        self, index: int, item: Any, options: ImportOptions, result: ImportResult
    ) -> _Pending:
        if isinstance(item, UnreadableItem):
            result.errors.append(ItemError(index=index, type="invalid_input", message=item.message))
            return _Pending(index, None, None)
        try:
            row, vector = self._to_row(item, options)
            successor = item.get("superseded_by") if isinstance(item, Mapping) else None
            return _Pending(index, row, vector, successor if isinstance(successor, str) else None)
        except ValidationError as exc:
            message = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            result.errors.append(ItemError(index=index, type="invalid_input", message=message))
        except LociError as exc:
            result.errors.append(ItemError(index=index, type=exc.code, message=exc.message))
        return _Pending(index, None, None)

    def _to_row(
        self, item: Any, options: ImportOptions
    ) -> tuple[sql.NewMemory, list[float] | None]:
        memory = ExportedMemory.model_validate(item)
        limits = self._engine.limits
        text = fields.content(memory.content, limits.max_content_bytes)
        vector = None if options.recompute_vectors else memory.vector
        if not options.recompute_vectors:
            dims = self._engine.embedder.identity.dimensions
            if vector is None or len(vector) != dims:
                raise InvalidInputError(
                    f"item needs a {dims}-d vector when recompute_vectors is false"
                )
            _check_vector(vector)
        occurred = None if memory.occurred_at is None else _stamp(memory.occurred_at, "occurred_at")
        valid_from, valid_until = validation.validity(
            memory.valid_from, memory.valid_until, occurred
        )
        row = sql.NewMemory(
            id=fields.memory_id(memory.id, "id"),
            content=text,
            content_hash=content_hash(text),
            namespace=fields.namespace(options.namespace_override or memory.namespace),
            tags=fields.tags(memory.tags),
            importance=fields.importance(memory.importance),
            source=fields.source(memory.source),
            metadata_json=fields.metadata(memory.metadata, limits.max_metadata_bytes),
            created_at=_stamp(memory.created_at, "created_at"),
            updated_at=_stamp(memory.updated_at, "updated_at"),
            last_accessed=_stamp(memory.last_accessed, "last_accessed"),
            access_count=fields.bounded_int(
                memory.access_count, 0, fields.MAX_COUNT, "access_count"
            ),
            embedding=b"",
            occurred_at=occurred,
            placement=None if memory.sequence is None else _placement(memory.sequence),
            valid_from=valid_from,
            valid_until=valid_until,
        )
        return row, vector

    def _store_batch(
        self,
        batch: list[_Pending],
        options: ImportOptions,
        seen: set[tuple[str, str]],
        result: ImportResult,
    ) -> list[_Pending]:
        """Store what of `batch` is not a duplicate; what was stored (ids as stored)."""
        with self._db.locked() as conn:
            taken = sql.namespaces_of_ids(conn, [p.row.id for p in batch if p.row])
            stored_hashes = sql.existing_hashes(
                conn, {(p.row.namespace, p.row.content_hash) for p in batch if p.row}
            )
        keep: list[_Pending] = []
        for pending in batch:
            assert pending.row is not None
            key = (pending.row.namespace, pending.row.content_hash)
            # A duplicate is the same memory in the same namespace: an id taken in another
            # namespace (an export imported into a new one) is a new memory, under a new id.
            same_memory = taken.get(pending.row.id) == pending.row.namespace
            if options.skip_duplicates and (key in stored_hashes or key in seen or same_memory):
                result.skipped_duplicates += 1
                continue
            if pending.row.id in taken:
                pending.row = replace(pending.row, id=str(uuid.uuid4()))
            seen.add(key)
            keep.append(pending)
        if not keep:
            return []
        rows = self._with_vectors(keep, options)
        with self._db.write() as conn:
            self._engine.check_model(conn)
            self._engine.record_model(conn)
            sql.ensure_namespaces(conn, {row.namespace for row in rows}, now())
            sql.insert_memories(conn, rows)
            prune_log(conn)
        self._engine.wrote()
        result.imported += len(rows)
        result.ids.extend(row.id for row in rows)
        return keep

    def _with_vectors(self, keep: list[_Pending], options: ImportOptions) -> list[sql.NewMemory]:
        if options.recompute_vectors:
            vectors = self._engine.embed([p.row.content for p in keep if p.row])
        else:
            vectors = _unit_rows(np.array([p.vector for p in keep], dtype=np.float32))
        # Passages are derived from the text: embedded here, whichever vectors were given.
        parts = self._engine.passages_of([p.row.content for p in keep if p.row])
        return [
            replace(p.row, embedding=vector_bytes(v), passages=passages)
            for p, v, passages in zip(keep, vectors, parts, strict=True)
            if p.row
        ]


def _batches(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """`items` in lists of `size` (the last may be shorter), read as they are needed."""
    remaining = iter(items)
    while batch := list(islice(remaining, size)):
        yield batch


def _check_vector(vector: list[float]) -> None:
    """Refuse a vector that cannot be scaled to unit length as stored (float32): one that is
    not finite, or all but zero (close to nothing, so never found)."""
    values = np.asarray(vector, dtype=np.float64)
    if not np.isfinite(values).all() or np.abs(values).max() > np.finfo(np.float32).max:
        raise InvalidInputError("vector must hold finite numbers", field="vector")
    if np.linalg.norm(values.astype(np.float32).astype(np.float64)) < MIN_VECTOR_NORM:
        raise InvalidInputError("vector must not be (nearly) all zeros", field="vector")


def _unit_rows(vectors: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Normalise rows that are not unit length already (exported vectors are kept bit-exact);
    `_check_vector` has passed each. Norms in float64: float32 overflows past ~1e19."""
    norms = np.linalg.norm(vectors.astype(np.float64), axis=1, keepdims=True)
    off = np.abs(norms - 1.0) > 1e-4
    return np.where(off, (vectors / norms).astype(np.float32), vectors)


def _placement(place: SequencePlace) -> Placement:
    """An exported place in a sequence, checked as a new one would be."""
    draft = SequenceDraft(place.name, place.kind, place.position, place.actor)
    # An import into a sequence that holds the position already keeps the memory, after the
    # sequence's last item.
    return replace(validation.placement(draft), append_if_taken=True)


def _stamp(value: str, field: str) -> str:
    try:
        return format_time(parse_time(value))
    except (ValueError, TypeError) as exc:
        raise InvalidInputError(f"{field} is not an ISO 8601 time: {fields.shown(value)}") from exc

"""`loci reindex`: embed memories again where needed, then rebuild every derived structure.

SQLite is the system of record; the vector index, the keyword index and the sequences'
keyword documents are derived from it and can always be rebuilt. Vectors are embedded again
for every memory when the model changed (or when asked), and otherwise only where the stored
vector is damaged (not a finite unit vector of the model's size), which no rebuild could fix.
"""

from __future__ import annotations

from typing import Any

from loci.engine.search.engine import EMBED_WINDOW, MemoryEngine, vector_bytes
from loci.engine.search.passage_spans import spans
from loci.storage.databases import health
from loci.storage.databases.db import Database
from loci.storage.indexes.derived import Progress
from loci.storage.memory_tables import passages, upkeep
from loci.storage.memory_tables.change_log import prune_log, reload_everywhere

#: Memories embedded and committed together.
REINDEX_BATCH = EMBED_WINDOW


def reindex(
    db: Database, engine: MemoryEngine, force: bool, progress: Progress | None
) -> dict[str, Any]:
    """Re-embed what needs it, rebuild the derived data; returns what was done."""
    identity = engine.embedder.identity
    with db.locked() as conn:
        stored = engine.stored_model(conn)
        rows = upkeep.contents(conn)
        re_embed_all = force or (stored is not None and stored != identity.name)
        damaged = [] if re_embed_all else health.damaged_vectors(conn, identity.dimensions)
    wanted = set(damaged)
    chosen = rows if re_embed_all else [row for row in rows if row[0] in wanted]
    _embed_again(db, engine, chosen, progress)
    embedded = _passages_again(db, engine, rows if re_embed_all else None)
    with db.write() as conn:
        if re_embed_all:
            engine.record_model(conn)
        sequence_count = engine.rebuild_keywords(conn)
        reload_everywhere(conn)  # other processes mirror what was rebuilt
    indexed = engine.rebuild_indexes(None if chosen else progress)
    return {
        "memories": len(rows),
        "re_embedded": len(chosen),
        "passages_embedded": embedded,
        "damaged_vectors": len(damaged),
        "indexed": indexed,
        "sequences": sequence_count,
        "previous_model": stored,
        "model": identity.name,
    }


def _passages_again(db: Database, engine: MemoryEngine, rows: list[tuple[int, str]] | None) -> int:
    """Embed the passages of the long memories among `rows` (None: of the long memories
    without any, such as those stored before passages existed); returns how many."""
    if rows is None:
        with db.locked() as conn:
            rows = passages.missing(conn)
    long_rows = [(seq, text) for seq, text in rows if spans(text)]
    for start in range(0, len(long_rows), REINDEX_BATCH):
        chunk = long_rows[start : start + REINDEX_BATCH]
        parts = engine.passages_of([text for _, text in chunk])
        with db.write() as conn:
            for (seq, _), new in zip(chunk, parts, strict=True):
                passages.replace(conn, seq, new)
            prune_log(conn)
    return len(long_rows)


def _embed_again(
    db: Database, engine: MemoryEngine, rows: list[tuple[int, str]], progress: Progress | None
) -> None:
    """Store a new vector for each (seq, content), a batch per transaction."""
    for start in range(0, len(rows), REINDEX_BATCH):
        chunk = rows[start : start + REINDEX_BATCH]
        vectors = engine.embed([content for _, content in chunk])
        with db.write() as conn:
            blobs = [(seq, vector_bytes(v)) for (seq, _), v in zip(chunk, vectors, strict=True)]
            upkeep.set_embeddings(conn, blobs)
            prune_log(conn)
        if progress is not None:
            progress(start + len(chunk), len(rows))

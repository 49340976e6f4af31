"""The memories closest in meaning to a given one."""

from __future__ import annotations

from loci import fields
from loci.engine.search import hybrid
from loci.engine.search.engine import MemoryEngine
from loci.errors import NotFoundError
from loci.storage.databases.db import Database
from loci.storage.indexes.vectors.protocol import Allowed
from loci.storage.memory_tables import memories as sql
from loci.toolsets.memory.hits import load_hits
from loci.toolsets.memory.models import MemoryRef, NearbyResult
from loci.toolsets.memory.rows import row_to_memory


def nearby(
    db: Database,
    engine: MemoryEngine,
    memory_id: str,
    limit: int = 5,
    exclude_self: bool = True,
    namespace: str | None = None,
) -> NearbyResult:
    """The memories closest to a given one in vector space (of `namespace`, which the
    given one must be in, when one is named)."""
    memory_id = fields.memory_id(memory_id)
    limit = fields.bounded_int(limit, 1, engine.limits.max_recall_limit, "limit")
    if namespace is not None:
        namespace = fields.namespace(namespace)
    with db.locked() as conn:
        found = sql.fetch_by_id(conn, memory_id)
    seq, reference = (None, None) if found is None else row_to_memory(found)
    if reference is None or seq is None or namespace not in (None, reference.namespace):
        where = "" if namespace is None else f" in namespace {namespace}"
        raise NotFoundError(f"no memory with id {memory_id}{where}", memory_id=memory_id)
    index = engine.index()
    vector = index.get(seq)
    if vector is None:
        raise NotFoundError(
            f"memory {memory_id} is not in the vector index: it was deleted meanwhile, or "
            "its stored vector is damaged (`loci doctor`)",
            memory_id=memory_id,
        )
    allowed = None if namespace is None else Allowed(namespaces=frozenset({namespace}))
    hits = index.search(vector, limit + 1, allowed)
    neighbours = [(h.key, h.similarity) for h in hits if not (exclude_self and h.key == seq)]
    ranked = [hybrid.Ranked(key, sim, sim) for key, sim in neighbours[:limit]]
    return NearbyResult(
        reference=MemoryRef(id=reference.id, content=reference.content),
        neighbors=load_hits(db, engine, ranked, limit, touch=False),
    )

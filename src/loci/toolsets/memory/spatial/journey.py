"""`journey`: a path between two memories through the vector space.

The path follows the great circle between the two (normalised) vectors, SLERP; at each interior
point the memory nearest to it that is neither an endpoint nor already on the path is the step.
A point with no memory close to it is a gap, reported as such rather than filled with whatever
is least far.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import numpy.typing as npt

from loci import fields
from loci.engine.search.engine import MemoryEngine
from loci.errors import InvalidInputError, NotFoundError
from loci.storage.databases.db import Database
from loci.storage.indexes.vectors.protocol import Allowed, VectorIndex
from loci.storage.memory_tables import memories as sql
from loci.toolsets.memory.models import MemoryRef
from loci.toolsets.memory.rows import row_to_memory
from loci.toolsets.memory.spatial.models import MAX_STEPS, JourneyResult, JourneyStep, PathMemory

#: A memory at least this similar to a point of the path is on it; below, the point is a gap
#: (with MiniLM, texts on unrelated subjects score under about 0.15, related ones 0.3 and up).
NEAR_SIMILARITY = 0.3
#: Neighbours looked at per point, beyond those the path has taken already.
SEARCH_MARGIN = 8

Vector = npt.NDArray[np.float32]


def slerp(a: Vector, b: Vector, t: float) -> Vector:
    """The point a fraction `t` of the way from `a` to `b` on the unit sphere."""
    cosine = float(np.clip(np.dot(a, b), -1.0, 1.0))
    angle = np.arccos(cosine)
    if np.sin(angle) < 1e-6:  # the same or opposite directions: no single great circle
        point = (1 - t) * a + t * b
    else:
        point = (np.sin((1 - t) * angle) * a + np.sin(t * angle) * b) / np.sin(angle)
    norm = float(np.linalg.norm(point))
    return np.asarray(point / norm if norm > 0 else a, dtype=np.float32)


class JourneyService:
    """Paths between memories, over the engine's vector index."""

    def __init__(self, db: Database, engine: MemoryEngine) -> None:
        self._db = db
        self._engine = engine

    def journey(
        self, start_id: str, end_id: str, steps: int = 5, namespace: str | None = None
    ) -> JourneyResult:
        """The path of `steps` interior points from `start_id` to `end_id` (through the
        memories of `namespace`, which both ends must be in, when one is named)."""
        start_id = fields.memory_id(start_id, "start_id")
        end_id = fields.memory_id(end_id, "end_id")
        steps = fields.bounded_int(steps, 1, MAX_STEPS, "steps")
        if namespace is not None:
            namespace = fields.namespace(namespace)
        if start_id == end_id:
            raise InvalidInputError("start_id and end_id are the same memory", field="end_id")
        (start_seq, start) = self._endpoint(start_id, namespace)
        (end_seq, end) = self._endpoint(end_id, namespace)
        allowed = None if namespace is None else Allowed(namespaces=frozenset({namespace}))
        index = self._engine.index()
        vectors = [self._vector(index, start_seq, start_id), self._vector(index, end_seq, end_id)]
        taken = {start_seq, end_seq}
        chosen: list[tuple[int, int, float] | None] = []
        for step in range(1, steps + 1):
            point = slerp(vectors[0], vectors[1], step / (steps + 1))
            hits = index.search(point.reshape(1, -1), len(taken) + SEARCH_MARGIN, allowed)
            best = next((h for h in hits if h.key not in taken), None)
            if best is None or best.similarity < NEAR_SIMILARITY:
                chosen.append(None)
                continue
            taken.add(best.key)
            chosen.append((step, best.key, float(best.similarity)))
        return self._result(start, end, chosen, [start_seq, end_seq], index)

    def _endpoint(self, memory_id: str, namespace: str | None) -> tuple[int, MemoryRef]:
        with self._db.locked() as conn:
            row = sql.fetch_by_id(conn, memory_id)
        seq, memory = (None, None) if row is None else row_to_memory(row)
        if memory is None or seq is None or namespace not in (None, memory.namespace):
            where = "" if namespace is None else f" in namespace {namespace}"
            raise NotFoundError(f"no memory with id {memory_id}{where}", memory_id=memory_id)
        return seq, MemoryRef(id=memory.id, content=memory.content)

    @staticmethod
    def _vector(index: VectorIndex, seq: int, memory_id: str) -> Vector:
        vector = index.get(seq)
        if vector is None:
            raise NotFoundError(
                f"memory {memory_id} is not in the vector index: run `loci doctor`",
                memory_id=memory_id,
            )
        return np.asarray(vector, dtype=np.float32).reshape(-1)

    def _result(
        self,
        start: MemoryRef,
        end: MemoryRef,
        chosen: list[tuple[int, int, float] | None],
        ends: list[int],
        index: VectorIndex,
    ) -> JourneyResult:
        found = [c for c in chosen if c is not None]
        with self._db.locked() as conn:
            rows = sql.rows_by_seq(conn, [seq for _, seq, _ in found])
        path: list[JourneyStep] = []
        for step, item in enumerate(chosen, start=1):
            if item is None or item[1] not in rows:
                path.append(
                    JourneyStep(step=step, nearest_memory=None, distance_to_ideal=None, gap=True)
                )
                continue
            _, seq, similarity = item
            _, stored = row_to_memory(rows[seq])
            memory = PathMemory(
                id=stored.id, content=stored.content, similarity=round(similarity, 4)
            )
            distance = round(1 - similarity, 4)
            path.append(
                JourneyStep(step=step, nearest_memory=memory, distance_to_ideal=distance, gap=False)
            )
        walked = [ends[0], *[seq for _, seq, _ in found], ends[1]]
        vectors = [self._vector(index, seq, "") for seq in walked]
        total = sum(1 - float(np.dot(a, b)) for a, b in pairwise(vectors))
        return JourneyResult(
            start=start,
            end=end,
            path=path,
            total_distance=round(total, 4),
            path_density=round(len(found) / len(chosen), 4),
        )

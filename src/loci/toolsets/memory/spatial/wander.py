"""`wander`: a walk through the memory space for serendipity.

Each step is, with probability `randomness`, a jump to a memory chosen at random, and
otherwise the nearest memory not yet visited. A walk is reproducible: the random seed it used is
returned, and passing it back repeats the walk on the same memories. Steps count regions with
the clustering `regions` shares, so a walk says how many subjects it crossed.
"""

from __future__ import annotations

import secrets

import numpy as np

from loci import fields
from loci.engine.search.engine import MemoryEngine
from loci.errors import InvalidInputError, NotFoundError
from loci.storage.databases.db import Database
from loci.storage.indexes.vectors.protocol import Allowed, VectorIndex
from loci.storage.memory_tables import memories as sql
from loci.toolsets.memory.models import MemoryRef
from loci.toolsets.memory.spatial.models import MAX_RANDOM_SEED, MAX_STEPS, WanderResult, WanderStep
from loci.toolsets.memory.spatial.regions import RegionMap, RegionsService

#: Neighbours looked at per step beyond the memories walked already.
SEARCH_MARGIN = 8


class WanderService:
    """Random walks over the memories of a scope."""

    def __init__(
        self, db: Database, engine: MemoryEngine, regions: RegionsService, max_text_bytes: int
    ) -> None:
        self._db = db
        self._engine = engine
        self._regions = regions
        self._max_text_bytes = max_text_bytes

    def wander(
        self,
        seed: str | None = None,
        seed_id: str | None = None,
        steps: int = 5,
        randomness: float = 0.3,
        random_seed: int | None = None,
        namespace: str | None = None,
    ) -> WanderResult:
        """A walk of up to `steps` steps after its start (fewer when every memory is visited)."""
        if seed is not None and seed_id is not None:
            raise InvalidInputError("give seed or seed_id, not both", field="seed_id")
        steps = fields.bounded_int(steps, 1, MAX_STEPS, "steps")
        randomness = fields.unit_float(randomness, "randomness")
        if random_seed is None:
            random_seed = secrets.randbelow(MAX_RANDOM_SEED)
        random_seed = fields.bounded_int(random_seed, 0, MAX_RANDOM_SEED, "random_seed")
        if seed is not None:
            seed = fields.content(seed, self._max_text_bytes, "seed")
        if seed_id is not None:
            seed_id = fields.memory_id(seed_id, "seed_id")
        found = self._regions.region_map(namespace)
        if len(found.space) == 0:
            raise NotFoundError("there are no memories to wander through", namespace=namespace)
        rng = np.random.default_rng(random_seed)
        walked = [self._start(found, seed, seed_id, rng)]
        kinds = ["start"]
        index = self._engine.index()
        allowed = Allowed(namespaces=frozenset({namespace})) if namespace is not None else None
        for _ in range(steps):
            step = _next(found, walked, randomness, rng, index, allowed)
            if step is None:
                break
            walked.append(step[0])
            kinds.append(step[1])
        return _result(found, walked, kinds, random_seed)

    def _start(
        self, found: RegionMap, seed: str | None, seed_id: str | None, rng: np.random.Generator
    ) -> int:
        space = found.space
        if seed_id is not None:
            with self._db.locked() as conn:
                row = sql.fetch_by_id(conn, seed_id)
            start = space.row_of.get(int(row[0])) if row is not None else None
            if start is None:
                raise NotFoundError(f"no memory with id {seed_id} here", memory_id=seed_id)
            return start
        if seed is not None:
            query = self._engine.embed([seed])[0]
            return int(np.argmax(space.vectors @ query))
        return int(rng.integers(len(space)))


def _next(
    found: RegionMap,
    walked: list[int],
    randomness: float,
    rng: np.random.Generator,
    index: VectorIndex,
    allowed: Allowed | None,
) -> tuple[int, str] | None:
    """The next row and how it was reached; None when every memory has been visited."""
    space = found.space
    if len(walked) >= len(space):
        return None
    if rng.random() < randomness:
        unvisited = np.ones(len(space), dtype=bool)
        unvisited[walked] = False
        return int(rng.choice(np.flatnonzero(unvisited))), "random"
    here = space.vectors[walked[-1]].reshape(1, -1)
    hits = index.search(here, len(walked) + SEARCH_MARGIN, allowed)
    rows = (space.row_of.get(hit.key) for hit in hits)
    row = next((r for r in rows if r is not None and r not in walked), None)
    if row is None:  # the index lags the map, or its hits are all walked: scan the map
        scores = space.vectors @ space.vectors[walked[-1]]
        scores[walked] = -np.inf
        row = int(np.argmax(scores))
    return row, "neighbor"


def _result(found: RegionMap, walked: list[int], kinds: list[str], seed: int) -> WanderResult:
    space, labels = found.space, found.clustering.labels
    journey: list[WanderStep] = []
    total = 0.0
    for number, (row, kind) in enumerate(zip(walked, kinds, strict=True)):
        similarity = None
        if number > 0:
            cosine = float(space.vectors[row] @ space.vectors[walked[number - 1]])
            total += 1.0 - cosine
            similarity = round(cosine, 4)
        region = int(labels[row])
        journey.append(
            WanderStep(
                step=number,
                memory=MemoryRef(id=space.ids[row], content=space.contents[row]),
                jump_type=kind,
                similarity_to_previous=similarity,
                cluster=region if region >= 0 else None,
            )
        )
    visited = {step.cluster for step in journey if step.cluster is not None}
    return WanderResult(
        journey=journey,
        unique_clusters_visited=len(visited),
        total_distance_traveled=round(total, 4),
        random_seed=seed,
    )

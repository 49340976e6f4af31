"""`consolidate`: near-duplicate memories made one, without losing what they say.

Candidates come from the vector index (each memory's nearest neighbours in its namespace,
never all pairs); groups never chain (see `duplicates`). A memory in a sequence (a conversation
turn, a story passage) is an event of its own and is never merged. Everything is written in one
transaction, after checking that no memory of a group changed since it was read; the ids of the
memories folded in keep resolving to the memory they were folded into.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from loci import fields
from loci.engine.search.engine import MemoryEngine, require_namespace, vector_bytes
from loci.errors import InvalidInputError
from loci.storage.databases.db import Connection, Database
from loci.storage.indexes.vectors.protocol import Allowed, VectorIndex
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import passages, upkeep
from loci.timeutil import now
from loci.toolsets.memory.lifecycle.duplicates import (
    Pair,
    groups_of,
    likeness,
    merged_text,
    prepare,
)
from loci.toolsets.memory.lifecycle.models import (
    CONSOLIDATE_STRATEGIES,
    ConsolidatedGroup,
    ConsolidateResult,
)
from loci.toolsets.memory.models import Memory, MemoryRef
from loci.toolsets.memory.rows import row_to_memory
from loci.toolsets.memory.validation import content_hash

#: Nearest neighbours of each memory looked at for duplicates, and how far below the threshold
#: their cosine may be (one word changed in a short text costs that much; its spelling then
#: decides, see `duplicates.likeness`).
NEIGHBOURS = 8
CANDIDATE_MARGIN = 0.15
#: Memories compared between two progress reports.
PROGRESS_EVERY = 500
#: Most tags a memory may carry (as `remember` allows).
MAX_TAGS = 64


Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class _Plan:
    """What one group becomes: the survivor's new fields and the memories folded into it."""

    keep: tuple[int, Memory]
    fold: list[tuple[int, Memory]]
    content: str
    tags: list[str]
    metadata: dict[str, object]
    importance: float
    similarity: float


class ConsolidateService:
    """Finds and merges near-duplicate memories."""

    def __init__(self, db: Database, engine: MemoryEngine) -> None:
        self._db = db
        self._engine = engine

    def consolidate(
        self,
        similarity_threshold: float = 0.9,
        namespace: str | None = None,
        strategy: str = "merge",
        dry_run: bool = False,
        progress: Progress | None = None,
    ) -> ConsolidateResult:
        """Merge each group of memories at least `similarity_threshold` similar; `progress(done,
        total)` hears how many memories have been compared."""
        if strategy not in CONSOLIDATE_STRATEGIES:
            choices = ", ".join(CONSOLIDATE_STRATEGIES)
            raise InvalidInputError(f"strategy must be one of {choices}", field="strategy")
        threshold = fields.unit_float(similarity_threshold, "similarity_threshold")
        if threshold < 0.5:
            raise InvalidInputError(
                "similarity_threshold below 0.5 would merge memories that are not duplicates",
                field="similarity_threshold",
            )
        scope = fields.namespace(namespace) if namespace is not None else None
        with self._db.locked() as conn:
            if scope is not None:
                require_namespace(conn, scope)
            candidates = upkeep.unsequenced(conn, scope)
        index = self._engine.index()
        near = _pairs(index, candidates, max(threshold - CANDIDATE_MARGIN, 0.0), progress)
        with self._db.locked() as conn:
            rows = sql.rows_by_seq(conn, sorted({seq for a, b, _ in near for seq in (a, b)}))
        judge = _Judge(index, {seq: str(row[2]) for seq, row in rows.items()}, threshold)
        scored = [(a, b, judge.likeness(a, b, cosine)) for a, b, cosine in near]
        groups = groups_of(
            [pair for pair in scored if pair[2] >= threshold],
            lambda a, b: judge.likeness(a, b) >= threshold,
        )
        plans, skipped = self._plans(groups, rows, strategy, judge)
        if not dry_run and plans:
            plans, changed = self._apply(plans)
            skipped += changed
        with self._db.locked() as conn:
            total = sql.count_in_scope(conn, scope)
        folded = sum(len(plan.fold) for plan in plans)
        return ConsolidateResult(
            strategy=strategy,
            groups_found=len(plans),
            memories_affected=folded + len(plans),
            memories_after=total - folded if dry_run else total,
            consolidated=[_reported(plan) for plan in plans],
            skipped=skipped,
            dry_run=dry_run,
        )

    def _plans(
        self,
        groups: list[list[int]],
        rows: Mapping[int, Sequence[Any]],
        strategy: str,
        judge: _Judge,
    ) -> tuple[list[_Plan], list[str]]:
        """What each group becomes, from the rows read when judging it (the write checks that
        none of them changed since)."""
        plans: list[_Plan] = []
        skipped: list[str] = []
        for group in groups:
            members = [row_to_memory(rows[seq]) for seq in group if seq in rows]
            if len(members) < 2:
                continue
            plan = _plan(members, strategy, judge.least(group))
            problem = self._too_big(plan)
            if problem:
                skipped.append(f"{plan.keep[1].id}: {problem}")
            else:
                plans.append(plan)
        return plans, skipped

    def _too_big(self, plan: _Plan) -> str | None:
        limits = self._engine.limits
        if len(plan.content.encode("utf-8")) > limits.max_content_bytes:
            return f"the merged text would exceed {limits.max_content_bytes} bytes"
        if len(plan.tags) > MAX_TAGS:
            return f"the merged tags would exceed {MAX_TAGS}"
        metadata = json.dumps(plan.metadata, ensure_ascii=False)
        if len(metadata.encode("utf-8")) > limits.max_metadata_bytes:
            return f"the merged metadata would exceed {limits.max_metadata_bytes} bytes"
        return None

    def _apply(self, plans: list[_Plan]) -> tuple[list[_Plan], list[str]]:
        # Merged texts are embedded before the write transaction, which only checks and writes.
        rewritten = [p for p in plans if p.content != p.keep[1].content]
        texts = [p.content for p in rewritten]
        keys = [p.keep[0] for p in rewritten]
        vectors = dict(zip(keys, self._engine.embed(texts), strict=True)) if texts else {}
        parts = dict(zip(keys, self._engine.passages_of(texts), strict=True))
        done: list[_Plan] = []
        skipped: list[str] = []
        stamp = now()
        with self._db.write() as conn:
            for plan in plans:
                if not _unchanged(conn, plan):
                    skipped.append(f"{plan.keep[1].id}: a memory of the group changed meanwhile")
                    continue
                seq = plan.keep[0]
                vector = vectors.get(seq)
                _write(conn, plan, stamp, None if vector is None else vector_bytes(vector))
                if seq in parts:
                    passages.replace(conn, seq, parts[seq])
                done.append(plan)
        self._engine.wrote()
        return done, skipped


def _pairs(
    index: VectorIndex,
    candidates: list[tuple[int, str]],
    floor: float,
    progress: Progress | None,
) -> list[Pair]:
    """Each memory's nearest neighbours at least `floor` similar, as (a, b, cosine), a < b."""
    allowed_seqs = {seq for seq, _ in candidates}
    pairs: dict[tuple[int, int], float] = {}
    for done, (seq, name) in enumerate(candidates, start=1):
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == len(candidates)):
            progress(done, len(candidates))
        vector = index.get(seq)
        if vector is None:
            continue
        allowed = Allowed(namespaces=frozenset({name}))
        for hit in index.search(vector.reshape(1, -1), NEIGHBOURS + 1, allowed):
            if hit.key != seq and hit.similarity >= floor and hit.key in allowed_seqs:
                pairs[(min(seq, hit.key), max(seq, hit.key))] = float(hit.similarity)
    return [(a, b, similarity) for (a, b), similarity in pairs.items()]


class _Judge:
    """How alike two memories are (their cosine from the index, and their texts), each pair
    judged once."""

    def __init__(self, index: VectorIndex, texts: dict[int, str], threshold: float) -> None:
        self._index = index
        self._texts = {seq: prepare(text) for seq, text in texts.items()}
        self._threshold = threshold
        self._judged: dict[tuple[int, int], float] = {}

    def likeness(self, a: int, b: int, cosine: float | None = None) -> float:
        pair = (min(a, b), max(a, b))
        if pair not in self._judged:
            if cosine is None:
                cosine = self._cosine(a, b)
            texts = self._texts.get(a), self._texts.get(b)
            self._judged[pair] = (
                likeness(cosine, texts[0], texts[1], self._threshold)
                if texts[0] is not None and texts[1] is not None
                else 0.0
            )
        return self._judged[pair]

    def least(self, group: Sequence[int]) -> float:
        return min(self.likeness(a, b) for i, a in enumerate(group) for b in group[i + 1 :])

    def _cosine(self, a: int, b: int) -> float:
        vector = self._index.get(a)
        if vector is None:
            return 0.0
        score = self._index.similarities(vector.reshape(1, -1), np.array([b], dtype=np.int64))
        return float(score[0]) if np.isfinite(score[0]) else 0.0


def _plan(members: list[tuple[int, Memory]], strategy: str, similarity: float) -> _Plan:
    by_age = sorted(members, key=lambda m: (m[1].created_at, m[0]))
    if strategy == "keep_newest":
        keep = by_age[-1]
    elif strategy == "keep_oldest":
        keep = by_age[0]
    else:  # merge: the most important survives (the oldest of equals), its text first
        keep = max(by_age, key=lambda m: m[1].importance)
    fold = [m for m in by_age if m[0] != keep[0]]
    content = keep[1].content
    if strategy == "merge":
        content = merged_text([keep[1].content, *(m.content for _, m in fold)])
    metadata: dict[str, object] = {}
    for _, memory in reversed(fold):
        metadata.update(memory.metadata)
    metadata.update(keep[1].metadata)  # the survivor's values win
    tags = list(dict.fromkeys(t for _, m in [keep, *fold] for t in m.tags))
    importance = max(m.importance for _, m in members)
    return _Plan(keep, fold, content, tags, metadata, importance, round(similarity, 4))


def _unchanged(conn: Connection, plan: _Plan) -> bool:
    """Whether every memory of the group still says what the plan read (a recall touching one
    meanwhile changes nothing the merge uses: access counts are read when writing)."""
    seqs = [plan.keep[0], *(seq for seq, _ in plan.fold)]
    rows = sql.rows_by_seq(conn, seqs)
    if len(rows) != len(seqs):
        return False
    expected = dict([plan.keep, *plan.fold])
    return all(_said(row_to_memory(rows[seq])[1]) == _said(expected[seq]) for seq in seqs)


def _said(memory: Memory) -> tuple[object, ...]:
    return (memory.content, memory.tags, memory.metadata, memory.importance, memory.namespace)


def _write(conn: Connection, plan: _Plan, stamp: str, embedding: bytes | None) -> None:
    merged = upkeep.MergedText(
        plan.content, content_hash(plan.content), plan.tags, plan.metadata, plan.importance
    )
    folded = [(seq, memory.id) for seq, memory in plan.fold]
    upkeep.merge(conn, plan.keep[0], folded, merged, stamp, embedding)


def _reported(plan: _Plan) -> ConsolidatedGroup:
    kept = plan.keep[1]
    return ConsolidatedGroup(
        kept=MemoryRef(id=kept.id, content=plan.content),
        merged_from=[MemoryRef(id=m.id, content=m.content) for _, m in plan.fold],
        similarity=plan.similarity,
    )

"""Rank recall candidates: vector and keyword scores fused, lifted by the period and speaker
the query names, then by neighbouring turns, by the rest of their thread, and by how well their
thread as a whole matches the query's words.

Filters have been applied before this point: both candidate lists hold only admitted memories,
and neighbours are looked up through the same filter.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from loci.memory import when
from loci.memory.filters import CompiledFilter
from loci.memory.ranking import fuse, named_speaker, with_boost, with_neighbours, with_thread_prior
from loci.memory.when import Period
from loci.stores import memories as sql
from loci.stores import timeline
from loci.stores.db import Database
from loci.stores.moments import MemoryTimes
from loci.stores.turns import TurnDirectory
from loci.stores.vectors import Hit, VectorIndex

#: How much of its best neighbour's score a memory gains (conversation turns only). Answers in a
#: chat often sit in the reply to a question that matches the query, or in the next message:
#: on LoCoMo this lifts recall@10 from 0.69 to 0.76.
NEIGHBOUR_WEIGHT = 0.5
#: How much of the mean of its thread's three best scores a memory gains (a chat session; any
#: other memory is a thread of its own). On LoCoMo it lifts recall@10 from 0.758 to 0.775.
THREAD_WEIGHT = 0.4
#: How much a memory gains from falling in a period the query names ("in May 2023"), times its
#: closeness (see `when`). On LoCoMo's 114 dated questions recall@10 goes from 0.67 to 0.92.
TIME_WEIGHT = 0.5
#: How much a conversation turn gains when its speaker is the one person the query names.
SPEAKER_WEIGHT = 0.1
#: How much a conversation turn gains from its whole thread's keyword score (relative to the
#: best thread's). A question's words are often spread over the turns of the session that
#: answers it: on LoCoMo this lifts recall@5 from 0.702 to 0.725, recall@10 from 0.810 to 0.818
#: and session recall@5 from 0.906 to 0.913 (0.2-0.4 all give about the same).
THREAD_KEYWORD_WEIGHT = 0.3


class Mirrors(NamedTuple):
    """The process's in-memory mirrors that ranking reads instead of the database."""

    turns: TurnDirectory
    times: MemoryTimes


class Ranked(NamedTuple):
    """One ranked memory: its key, cosine similarity to the query, and final score."""

    key: int
    similarity: float
    score: float


@dataclass(frozen=True)
class Candidates:
    """What the two searches found: vector hits and (seq, keyword score; larger is better)."""

    vector: Sequence[Hit]
    keyword: Mapping[int, float]
    thread_keyword: Mapping[int, float] = field(default_factory=dict)  # thread id -> score
    conversations: bool = True  # False: no conversation turn is stored, skip the thread lookup
    query: str = ""  # the question, for the speaker it names
    periods: Sequence[Period] = ()  # the periods it names


def rank(
    db: Database,
    index: VectorIndex,
    query_vector: npt.NDArray[np.float32],
    found: Candidates,
    compiled: CompiledFilter,
    alpha: float,
    mirrors: Mirrors | None = None,
) -> Iterator[Ranked]:
    """All candidates, best first (lazily: callers usually want the first few).
    alpha 1 and 0 are the pure vector and keyword rankings. `mirrors`, the process's mirrors
    of where conversation turns sit and when memories happened, save reading them from the
    database when the filter admits whole namespaces."""
    similarity = {hit.key: hit.similarity for hit in found.vector}
    if alpha >= 1.0:
        return _ordered(similarity, similarity)
    if alpha <= 0.0:
        keyword = dict(found.keyword)
        similarity = index.similarities(query_vector, list(keyword))
        return _ordered(keyword, similarity)
    pool = similarity.keys() | found.keyword.keys()
    threads, times = _context(db, pool, found, compiled, mirrors)
    pool |= {n for near in threads.neighbours.values() for n in near}
    similarity.update(index.similarities(query_vector, [k for k in pool if k not in similarity]))
    scores = fuse(similarity, found.keyword, alpha)
    if found.periods:
        scores = with_boost(scores, _closeness(times, found.periods), TIME_WEIGHT)
    speaker = named_speaker(found.query, threads.speaker_of.values())
    if speaker is not None:
        spoke = {key: 1.0 for key, name in threads.speaker_of.items() if name == speaker}
        scores = with_boost(scores, spoke, SPEAKER_WEIGHT)
    if threads.neighbours:
        scores = with_neighbours(scores, threads.neighbours, NEIGHBOUR_WEIGHT)
    scores = with_thread_prior(scores, threads.thread_of, THREAD_WEIGHT)
    if found.thread_keyword:
        scores = with_boost(
            scores, _by_thread(threads.thread_of, found.thread_keyword), THREAD_KEYWORD_WEIGHT
        )
    return _ordered(scores, similarity)


def _context(
    db: Database,
    pool: set[int],
    found: Candidates,
    compiled: CompiledFilter,
    mirrors: Mirrors | None,
) -> tuple[sql.Threads, dict[int, float]]:
    """The candidates' conversation threads, and the times (POSIX seconds) of them and their
    neighbours when the query names a period."""
    # The mirrors hold every memory: they answer for filters that admit whole namespaces.
    usable = mirrors if mirrors is not None and compiled.only_namespaces else None
    threads = _threads(db, pool, found, compiled, usable.turns if usable else None)
    if not found.periods:
        return threads, {}
    near = {n for around in threads.neighbours.values() for n in around}
    if usable is not None:
        return threads, usable.times.of(pool | near)
    with db.locked() as conn:
        return threads, timeline.times_of(conn, sorted(pool | near))


def _threads(
    db: Database,
    pool: set[int],
    found: Candidates,
    compiled: CompiledFilter,
    turns: TurnDirectory | None,
) -> sql.Threads:
    if not found.conversations:
        return sql.Threads({}, {}, {})
    if turns is not None:
        return turns.threads(sorted(pool), compiled.namespaces)
    with db.locked() as conn:
        return sql.conversation_threads(conn, sorted(pool), compiled.sql, compiled.params)


def _by_thread(thread_of: Mapping[int, int], thread_score: Mapping[int, float]) -> dict[int, float]:
    """Each turn's share of the best thread score: its own thread's score over the best one."""
    best = max(thread_score.values())
    if best <= 0.0:
        return {}
    return {key: thread_score.get(thread, 0.0) / best for key, thread in thread_of.items()}


def _closeness(times: Mapping[int, float], periods: Sequence[Period]) -> dict[int, float]:
    """Each timed memory's closeness to the periods, left out where it is 0."""
    keys = np.fromiter(times.keys(), dtype=np.int64, count=len(times))
    seconds = np.fromiter(times.values(), dtype=np.float64, count=len(times))
    closeness = when.closeness_of(seconds, periods)
    close = closeness > 0.0
    return dict(zip(keys[close].tolist(), closeness[close].tolist(), strict=True))


def _ordered(scores: Mapping[int, float], similarity: Mapping[int, float]) -> Iterator[Ranked]:
    # Keys ascending, then a stable sort by score: ties stay in key order (oldest first).
    # Sorting keys by `scores.__getitem__` costs half of sorting (score, key) tuples.
    ordered = sorted(scores)
    ordered.sort(key=scores.__getitem__, reverse=True)
    return (Ranked(key, similarity.get(key, 0.0), scores[key]) for key in ordered)

"""Rank recall candidates: vector and keyword scores fused, lifted by the period and speaker
the query names, then by neighbouring turns, by the rest of their thread, and by how well their
thread as a whole matches the query's words.

Filters have been applied before this point: both candidate lists hold only admitted memories,
and neighbours are looked up through the same filter.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from loci.memory import scoring, when
from loci.memory.filters import CompiledFilter
from loci.memory.ranking import named_speaker
from loci.memory.when import Period
from loci.stores import memories as sql
from loci.stores import timeline
from loci.stores.db import Database
from loci.stores.moments import MemoryTimes
from loci.stores.turns import TurnDirectory, TurnFacts, around, facts_of_threads
from loci.stores.vector_index import Hit, VectorIndex

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
#: How much a conversation turn gains when its speaker is the one person the query names. The
#: vector search leaves speaker names out of the query (`ranking.vector_query`), so this lift
#: alone favours the named speaker's turns: 0.1 -> 0.2 lifts LoCoMo recall@5 from 0.720 to
#: 0.731 and recall@10 from 0.824 to 0.831 (each in at least four of its five conversations).
SPEAKER_WEIGHT = 0.2
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
    if alpha >= 1.0:
        similarity = {hit.key: hit.similarity for hit in found.vector}
        return _ordered(similarity, similarity)
    if alpha <= 0.0:
        keyword = dict(found.keyword)
        keys = np.fromiter(keyword, np.int64, len(keyword))
        cosine = index.similarities(query_vector, keys)
        known = ~np.isnan(cosine)
        return _ordered(
            keyword, dict(zip(keys[known].tolist(), cosine[known].tolist(), strict=True))
        )
    # The mirrors hold every memory: they answer for filters that admit whole namespaces.
    usable = mirrors if mirrors is not None and compiled.only_namespaces else None
    similarity = {hit.key: hit.similarity for hit in found.vector}
    first = np.array(sorted(similarity.keys() | found.keyword.keys()), dtype=np.int64)
    pool = (
        scoring.widen(first, _facts(db, first, compiled, usable))
        if found.conversations
        else scoring.alone(first)
    )
    keys = pool.keys.tolist()
    cosine = _cosines(index, query_vector, pool.keys, similarity)
    matched = np.fromiter(map(found.keyword.get, keys, repeat(0.0)), np.float64, len(keys))
    scores = scoring.fused(cosine, matched, alpha)
    if found.periods:
        scores = scores + TIME_WEIGHT * _closeness(db, pool.keys, found.periods, usable)
    speaker = named_speaker(found.query, pool.voices)
    if speaker is not None:
        scores = scores + SPEAKER_WEIGHT * (pool.speakers == pool.names.index(speaker))
    scores = scoring.with_neighbours(scores, pool, NEIGHBOUR_WEIGHT)
    scores = scoring.with_thread_prior(scores, pool, THREAD_WEIGHT)
    if found.thread_keyword:
        thread_scores = found.thread_keyword
        threads = np.fromiter(thread_scores.keys(), np.int64, len(thread_scores))
        values = np.fromiter(thread_scores.values(), np.float64, len(thread_scores))
        scores = scores + THREAD_KEYWORD_WEIGHT * scoring.thread_shares(pool, threads, values)
    order = scoring.ordered(scores).tolist()
    # np.where, not nan_to_num: the same zeros for NaN, 4 against 21 us.
    similarities = np.where(np.isnan(cosine), 0.0, cosine).tolist()
    values = scores.tolist()
    return (Ranked(keys[i], similarities[i], values[i]) for i in order)


def _cosines(
    index: VectorIndex,
    query_vector: npt.NDArray[np.float32],
    keys: scoring.Keys,
    known: Mapping[int, float],
) -> scoring.Floats:
    """Each key's similarity to the query: the vector search's figure for its hits, the
    index's for the others (NaN for keys it does not hold)."""
    cosine = np.fromiter(map(known.get, keys.tolist(), repeat(np.nan)), np.float64, len(keys))
    missing = np.isnan(cosine)
    if missing.any():
        cosine[missing] = index.similarities(query_vector, keys[missing])
    return cosine


def _facts(
    db: Database, first: scoring.Keys, compiled: CompiledFilter, mirrors: Mirrors | None
) -> TurnFacts:
    """The conversation facts of the first candidates and of the memories up to two steps
    from them, from the mirror or else the database."""
    if mirrors is not None:
        return mirrors.turns.around(first, compiled.namespaces)
    with db.locked() as conn:
        threads = sql.conversation_threads(conn, first.tolist(), compiled.sql, compiled.params)
    return facts_of_threads(threads).at(around(first))


def _closeness(
    db: Database, keys: scoring.Keys, periods: Sequence[Period], mirrors: Mirrors | None
) -> npt.NDArray[np.float64]:
    """Each memory's closeness to the periods (0 for memories without a time)."""
    if mirrors is not None:
        times = mirrors.times.of(keys.tolist())
    else:
        with db.locked() as conn:
            times = timeline.times_of(conn, keys.tolist())
    seconds = np.fromiter((times.get(k, np.nan) for k in keys.tolist()), np.float64, len(keys))
    return when.closeness_of(seconds, periods)


def _ordered(scores: Mapping[int, float], similarity: Mapping[int, float]) -> Iterator[Ranked]:
    # Keys ascending, then a stable sort by score: ties stay in key order (oldest first).
    # Sorting keys by `scores.__getitem__` costs half of sorting (score, key) tuples.
    ordered = sorted(scores)
    ordered.sort(key=scores.__getitem__, reverse=True)
    return (Ranked(key, similarity.get(key, 0.0), scores[key]) for key in ordered)

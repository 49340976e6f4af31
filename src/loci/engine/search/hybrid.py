"""Rank recall candidates: the pool of what the two searches found and the items beside them
in their sequences, scored by the named signals of a profile (`signals`).

Filters have been applied before this point: both candidate lists hold only admitted memories,
and the items beside them join the pool only if the filter admits them too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from loci.engine.search import signals, when
from loci.engine.search.signals import Floats, Keys, Pool, Profile
from loci.engine.search.when import Period
from loci.engine.sequences import members
from loci.engine.sequences.members import Place
from loci.storage.databases.db import Connection, Database
from loci.storage.databases.dialect import among
from loci.storage.indexes.keywords.protocol import KeywordIndex
from loci.storage.indexes.passages.in_process import PassageSearch
from loci.storage.indexes.vectors.protocol import Allowed, Hit, VectorIndex
from loci.storage.memory_tables import timeline


class Ranked(NamedTuple):
    """One ranked memory: its key, cosine similarity to the query, final score and, when
    asked to explain, each signal's value."""

    key: int
    similarity: float
    score: float
    signals: Mapping[str, float] | None = None


@dataclass(frozen=True)
class Candidates:
    """What the searches found: vector hits, keyword scores by seq and by sequence id (larger
    is better), and what the query names."""

    vector: Sequence[Hit]
    keyword: Mapping[int, float]
    group_keyword: Mapping[int, float] = field(default_factory=dict)
    sequences: bool = True  # False: no memory is in a sequence, skip looking for neighbours
    actor: str | None = None  # the one actor of the searched sequences the question names
    periods: Sequence[Period] = ()  # the periods it names


@dataclass(frozen=True)
class Context:
    """Where ranking reads what the searches did not bring: the database, the vector index,
    what the filter admits, and the passages of long memories (None: no memory has any)."""

    db: Database
    index: VectorIndex
    allowed: Allowed | None
    keywords: KeywordIndex
    passages: PassageSearch | None = None


def rank(
    context: Context,
    query_vector: npt.NDArray[np.float32],
    found: Candidates,
    profile: Profile,
    explain: bool = False,
) -> Iterator[Ranked]:
    """All candidates, best first (lazily: callers usually want the first few). A profile
    without keyword weight is the pure vector ranking, one without vector weight the pure
    keyword ranking."""
    if profile.keyword <= 0.0:
        similarity = {hit.key: hit.similarity for hit in found.vector}
        return _ordered(similarity, similarity, "vector", explain)
    if profile.vector <= 0.0:
        keyword = dict(found.keyword)
        keys = np.fromiter(keyword, np.int64, len(keyword))
        cosine = context.index.similarities(query_vector, keys)
        known = ~np.isnan(cosine)
        cosines = dict(zip(keys[known].tolist(), cosine[known].tolist(), strict=True))
        return _ordered(keyword, cosines, "keyword", explain)
    pool = _pool(context, query_vector, found)
    scored = signals.score(pool, profile)
    keys = pool.keys.tolist()
    similarities = np.where(np.isnan(pool.cosine), 0.0, pool.cosine).tolist()
    values = scored.scores.tolist()
    order = signals.ordered(scored.scores).tolist()
    return (
        Ranked(keys[i], similarities[i], values[i], _explained(scored, i) if explain else None)
        for i in order
    )


def _pool(context: Context, query_vector: npt.NDArray[np.float32], found: Candidates) -> Pool:
    """The candidates and the items beside them in their sequences, with their evidence."""
    similarity = {hit.key: hit.similarity for hit in found.vector}
    first = sorted(similarity.keys() | found.keyword.keys())
    places = _places(context, first) if found.sequences else {}
    keys = np.array(sorted(set(first) | places.keys()), dtype=np.int64)
    listed = keys.tolist()
    at = {key: n for n, key in enumerate(listed)}
    cosine = _cosines(context.index, query_vector, keys, similarity)
    if context.passages is not None:
        cosine = np.fmax(cosine, context.passages.best(query_vector, keys))
    matched = np.fromiter(map(found.keyword.get, listed, repeat(0.0)), np.float64, len(keys))
    groups = np.full(len(keys), -1, dtype=np.int64)
    previous = np.full(len(keys), -1, dtype=np.intp)
    following = np.full(len(keys), -1, dtype=np.intp)
    for key, place in places.items():
        n = at[key]
        groups[n] = place.sequence
        # Links go both ways: the items beside a candidate were looked up from it alone.
        if place.previous in at:
            previous[n], following[at[place.previous]] = at[place.previous], n
        if place.following in at:
            following[n], previous[at[place.following]] = at[place.following], n
    closeness = _closeness(context, keys, found.periods) if found.periods else np.zeros(len(keys))
    return Pool(
        keys=keys,
        cosine=cosine,
        keyword=matched,
        closeness=closeness,
        actor_named=_by_actor(context, listed, places, found.actor),
        groups=groups,
        previous=previous,
        following=following,
        group_keyword=_group_shares(groups, found.group_keyword),
    )


def best_of(*searches: Sequence[Hit]) -> list[Hit]:
    """Hits of several searches, each key with its best similarity, best first."""
    best: dict[int, float] = {}
    for hits in searches:
        for hit in hits:
            if hit.similarity > best.get(hit.key, -np.inf):
                best[hit.key] = hit.similarity
    ordered = sorted(best.items(), key=lambda item: -item[1])
    return [Hit(key, similarity) for key, similarity in ordered]


def _by_actor(
    context: Context, keys: list[int], places: Mapping[int, Place], actor: str | None
) -> npt.NDArray[np.bool_]:
    """Whether each memory is by `actor`: said or done by them in a sequence or, for a memory
    without an actor, naming them in its text."""
    if actor is None:
        return np.zeros(len(keys), dtype=np.bool_)
    actors = [places[key].actor if key in places else None for key in keys]
    unplaced = [key for key, its in zip(keys, actors, strict=True) if its is None]
    with context.db.locked() as conn:
        naming = context.keywords.naming(conn, actor, unplaced)
    return np.fromiter(
        (
            key in naming if its is None else its == actor
            for key, its in zip(keys, actors, strict=True)
        ),
        np.bool_,
        len(keys),
    )


def _places(context: Context, first: list[int]) -> dict[int, Place]:
    """The places of the candidates in their sequences, and of the admitted items beside
    them, by seq."""
    with context.db.locked() as conn:
        found = {place.seq: place for place in members.places(conn, first)}
        beside = {
            key
            for place in found.values()
            for key in (place.previous, place.following)
            if key is not None and key not in found
        }
        admitted = _admitted(conn, sorted(beside), context.allowed)
        found.update(
            (place.seq, place) for place in members.places(conn, admitted, neighbours=False)
        )
    return found


def _admitted(conn: Connection, keys: list[int], allowed: Allowed | None) -> list[int]:
    """Those of `keys` the filter admits. Items of a sequence share its namespace, so only a
    filter on other fields can leave some out."""
    if allowed is not None and allowed.where is not None and keys:
        listed, bound = among(conn, "m.seq", keys)
        rows = conn.execute(
            f"SELECT m.seq FROM memories m WHERE {listed} AND ({allowed.where}) ORDER BY m.seq",
            [bound, *allowed.params],
        )
        return [int(row[0]) for row in rows]
    if allowed is None or allowed.keys is None or not keys:
        return keys
    wanted = np.array(keys, dtype=np.int64)
    kept: list[int] = wanted[np.isin(wanted, allowed.keys)].tolist()
    return kept


def _group_shares(groups: Keys, scores: Mapping[int, float]) -> Floats:
    """Each memory's sequence's keyword score over the best sequence's (0 without one)."""
    best = max(scores.values(), default=0.0)
    if best <= 0.0:
        return np.zeros(groups.shape[0])
    found = np.fromiter(map(scores.get, groups.tolist(), repeat(0.0)), np.float64, len(groups))
    shares: Floats = found / best
    return shares


def _cosines(
    index: VectorIndex,
    query_vector: npt.NDArray[np.float32],
    keys: Keys,
    known: Mapping[int, float],
) -> Floats:
    """Each key's similarity to the query: the vector search's figure for its hits, the
    index's for the others (NaN for keys it does not hold)."""
    cosine = np.fromiter(map(known.get, keys.tolist(), repeat(np.nan)), np.float64, len(keys))
    missing = np.isnan(cosine)
    if missing.any():
        cosine[missing] = index.similarities(query_vector, keys[missing])
    return cosine


def _closeness(context: Context, keys: Keys, periods: Sequence[Period]) -> Floats:
    """Each memory's closeness to the periods. A memory given no time of its own but stored
    after the first period began may be about it: its time is unknown, and an unknown time
    is no evidence against it, so it counts as inside."""
    listed = keys.tolist()
    with context.db.locked() as conn:
        times = timeline.times_of(conn, listed)
        undated = timeline.undated(conn, listed)
    seconds = np.fromiter((times.get(k, np.nan) for k in listed), np.float64, len(keys))
    closeness = when.closeness_of(seconds, periods)
    first_start = min(period.start for period in periods).timestamp()
    unknown = np.fromiter((k in undated for k in listed), np.bool_, len(keys))
    result: Floats = np.where(unknown & (seconds >= first_start), 1.0, closeness)
    return result


def _explained(scored: signals.Scored, position: int) -> dict[str, float]:
    return {name: float(values[position]) for name, values in scored.signals.items()}


def _ordered(
    scores: Mapping[int, float], similarity: Mapping[int, float], signal: str, explain: bool
) -> Iterator[Ranked]:
    # Keys ascending, then a stable sort by score: ties stay in key order (oldest first).
    ordered = sorted(scores)
    ordered.sort(key=scores.__getitem__, reverse=True)
    return (
        Ranked(
            key,
            similarity.get(key, 0.0),
            scores[key],
            {signal: scores[key]} if explain else None,
        )
        for key in ordered
    )

"""Ranking as named signals, each a small function over the pool of candidates, weighed by a
profile.

A memory's own evidence comes first: how close its vector is to the query's (`vector`), how
well its words match (`keyword`), whether it happened in a period the query names (`time`),
whether its actor is the one person the query names (`actor`). Its context follows: the best
own evidence beside it in its sequence (`neighbours`), the evidence of its sequence as a whole
(`group`, `group_keyword`).

Context is only ever evidence beyond the memory's own: a memory without a sequence is its own
context (its group is itself, its neighbours lift nothing), so a note and the same text as a
turn among unrelated turns score the same, and only a sequence that holds more evidence than
the memory itself lifts it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

Keys = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Flags = npt.NDArray[np.bool_]
Positions = npt.NDArray[np.intp]


@dataclass(frozen=True)
class Profile:
    """The weight of each signal. `vector` and `keyword` split one unit (hybrid_alpha)."""

    name: str = "default"
    vector: float = 0.5
    keyword: float = 0.5
    time: float = 0.5
    actor: float = 0.2
    neighbours: float = 0.5
    group: float = 0.4
    group_keyword: float = 0.3

    def with_alpha(self, alpha: float) -> Profile:
        """This profile with the vector share `alpha` and the keyword share 1 - alpha."""
        return replace(self, vector=alpha, keyword=1.0 - alpha)

    def weights(self) -> dict[str, float]:
        """Signal name -> weight."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "name"}


DEFAULT = Profile()


class Pool(NamedTuple):
    """The memories a recall scores (keys sorted) and the evidence about each."""

    keys: Keys
    cosine: Floats  # similarity to the query; NaN where unknown
    keyword: Floats  # keyword score, larger is better; 0 for no match
    closeness: Floats  # closeness to the periods the query names; 0 for none
    actor_named: Flags  # whether its actor is the one the query names
    groups: Keys  # its sequence, -1 for none
    previous: Positions  # the pool position of the item before it in its sequence, -1 for none
    following: Positions  # ... and after it
    group_keyword: Floats  # its sequence's keyword score over the best sequence's; 0 for none


OwnSignal = Callable[[Pool], Floats]
ContextSignal = Callable[[Pool, Floats], Floats]


def vector(pool: Pool) -> Floats:
    """Similarity scaled to [0, 1] over the pool (NaN: 0). Unlike reciprocal rank fusion,
    scaling keeps how far apart the candidates are."""
    return _min_max(pool.cosine)


def keyword(pool: Pool) -> Floats:
    """Keyword score over the best one."""
    best = pool.keyword.max() if pool.keyword.shape[0] else 0.0
    scaled: Floats = pool.keyword / best if best > 0 else np.zeros(pool.keyword.shape[0])
    return scaled


def time(pool: Pool) -> Floats:
    """Closeness to the periods the query names."""
    return pool.closeness


def actor(pool: Pool) -> Floats:
    """1 where the memory's actor is the one person the query names."""
    return pool.actor_named.astype(np.float64)


def neighbours(pool: Pool, own: Floats) -> Floats:
    """How far the best own evidence just before or after the memory in its sequence stands
    above its own: a turn next to a stronger match gains (answers often sit in the reply to a
    matching question); one among weaker items gains nothing, as a note."""
    best = np.full(own.shape[0], -np.inf)
    for side in (pool.previous, pool.following):
        present = side >= 0
        best[present] = np.maximum(best[present], own[side[present]])
    lift: Floats = np.where(np.isfinite(best), np.maximum(best - own, 0.0), 0.0)
    return lift


def group(pool: Pool, own: Floats, top: int = 3) -> Floats:
    """The mean of the `top` best own evidence in the memory's sequence, or its own if
    higher: a memory of a sequence that is about the question gains over a stray match."""
    count = own.shape[0]
    if count == 0:
        return own
    groups = np.where(pool.groups >= 0, pool.groups, -1 - np.arange(count))
    order = np.lexsort((-own, groups))  # by group, best first within each
    grouped = groups[order]
    opens = np.empty(count, dtype=np.bool_)
    opens[0] = True
    np.not_equal(grouped[1:], grouped[:-1], out=opens[1:])
    starts = np.flatnonzero(opens)
    group_of = np.cumsum(opens) - 1
    in_top = np.arange(count) - starts[group_of] < top
    sums = np.bincount(group_of[in_top], weights=own[order][in_top], minlength=starts.shape[0])
    sizes = np.minimum(np.bincount(group_of), top)
    mean = np.empty(count)
    mean[order] = (sums / sizes)[group_of]
    lifted: Floats = np.maximum(mean, own)
    return lifted


def group_keyword(pool: Pool, own: Floats) -> Floats:
    """How well the memory's sequence as a whole matches the query's words (relative to the
    best sequence), or the memory's own keyword score if higher: a question's words are often
    spread over the items of the sequence that answers it."""
    del own
    result: Floats = np.maximum(pool.group_keyword, keyword(pool))
    return result


OWN: Mapping[str, OwnSignal] = {
    "vector": vector,
    "keyword": keyword,
    "time": time,
    "actor": actor,
}
CONTEXT: Mapping[str, ContextSignal] = {
    "neighbours": neighbours,
    "group": group,
    "group_keyword": group_keyword,
}


class Scored(NamedTuple):
    """Each pool entry's score and, by name, each signal's value."""

    scores: Floats
    signals: dict[str, Floats]


def score(pool: Pool, profile: Profile) -> Scored:
    """The weighted sum of every signal the profile weighs."""
    weights = profile.weights()
    signals: dict[str, Floats] = {}
    own = np.zeros(pool.keys.shape[0])
    for name, own_signal in OWN.items():
        if weights[name]:
            signals[name] = own_signal(pool)
            own = own + weights[name] * signals[name]
    total = own.copy()
    for name, context_signal in CONTEXT.items():
        if weights[name]:
            signals[name] = context_signal(pool, own)
            total = total + weights[name] * signals[name]
    return Scored(total, signals)


def ordered(scores: Floats) -> Positions:
    """Positions best first; ties keep key order (oldest first)."""
    return np.argsort(-scores, kind="stable")


def _min_max(values: Floats) -> Floats:
    """Values scaled to [0, 1] over their range (all 1 if they are equal); NaN becomes 0."""
    if values.shape[0] == 0:
        return values
    known = ~np.isnan(values)
    if not known.all():
        scaled = np.zeros(values.shape[0])
        if known.any():
            scaled[known] = _min_max(values[known])
        return scaled
    low, high = values.min(), values.max()
    if high > low:
        result: Floats = (values - low) / (high - low)
        return result
    return np.ones(values.shape[0])

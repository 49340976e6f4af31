"""Recall scoring on arrays: the pool of candidates and turns, fusion, and the lifts."""

from __future__ import annotations

import numpy as np
import pytest

from loci.memory import scoring
from loci.stores.turns import NO_TURNS, TurnFacts, around

# Memories 1-6 are one session (thread 7), 7-8 another (thread 9); 9 is a plain memory,
# 10-11 a third session (thread 4). Ana is speaker 0, Ben speaker 1.
SEQS = np.arange(1, 12, dtype=np.int64)
THREADS = np.array([7, 7, 7, 7, 7, 7, 9, 9, -1, 4, 4], dtype=np.int64)
SPEAKERS = np.array([0, 1, 0, 1, 0, 1, 0, 1, -1, 0, 1], dtype=np.int32)
STORE = TurnFacts(SEQS, THREADS, SPEAKERS, ("Ana", "Ben"))


def keys(*seqs: int) -> scoring.Keys:
    return np.array(seqs, dtype=np.int64)


def pool_of(*first: int) -> scoring.Pool:
    candidates = keys(*first)
    return scoring.widen(candidates, STORE.at(around(candidates)))


def test_the_pool_takes_turns_two_steps_away_in_the_same_thread() -> None:
    pool = pool_of(3)
    assert pool.keys.tolist() == [1, 2, 3, 4, 5]
    assert pool.near.tolist() == [False, True, True, True, False]
    assert pool.threads.tolist() == [7] * 5
    assert pool.voices == frozenset({"Ana", "Ben"}) and pool.turns_around


def test_the_pool_keeps_to_the_thread_of_each_turn_near_a_candidate() -> None:
    pool = pool_of(7, 9)
    # 6 and 10 are turns next to a candidate, but of other threads (or none): they are left
    # out, and bring only their own thread's neighbours, 5 and 11. 8 is 7's, in its thread.
    assert pool.keys.tolist() == [5, 7, 8, 9, 11]
    assert pool.threads.tolist() == [7, 9, 9, -1, 4]
    assert pool.near.tolist() == [False, True, True, False, False]


def test_the_pool_keeps_a_candidate_the_facts_do_not_know() -> None:
    pool = pool_of(40)
    assert pool.keys.tolist() == [40] and pool.threads.tolist() == [-1]
    assert not pool.turns_around and pool.voices == frozenset()


def test_a_store_without_turns_has_a_pool_of_the_candidates_alone() -> None:
    candidates = keys(2, 5, 9)
    widened = scoring.widen(candidates, NO_TURNS.at(around(candidates)))
    alone = scoring.alone(candidates)
    assert widened.keys.tolist() == alone.keys.tolist() == [2, 5, 9]
    assert widened.threads.tolist() == alone.threads.tolist() == [-1, -1, -1]
    assert not widened.turns_around and not alone.turns_around


def test_fusion_scales_similarities_over_the_pool_and_keywords_by_the_best() -> None:
    similarity = np.array([0.2, 0.6, np.nan, 0.4])
    keyword = np.array([0.0, 2.0, 4.0, 0.0])
    fused = scoring.fused(similarity, keyword, 0.5)
    # Similarities: 0.2 -> 0, 0.6 -> 1, unknown -> 0, 0.4 -> 0.5; keywords over 4.
    assert fused.tolist() == pytest.approx([0.0, 0.75, 0.5, 0.25])


def test_fusion_of_equal_similarities_and_no_keyword_match() -> None:
    fused = scoring.fused(np.array([0.3, 0.3]), np.zeros(2), 0.7)
    assert fused.tolist() == pytest.approx([0.7, 0.7])
    assert scoring.fused(np.zeros(0), np.zeros(0), 0.5).shape == (0,)


def test_a_turn_near_a_candidate_gains_from_its_best_neighbour_in_the_thread() -> None:
    pool = pool_of(3, 7)  # keys 1-5 (thread 7), 7-8 (thread 9)
    scores = np.array([0.1, 0.2, 0.9, 0.3, 0.05, 0.8, 0.4])
    lifted = scoring.with_neighbours(scores, pool, 0.5)
    by_key = dict(zip(pool.keys.tolist(), lifted.tolist(), strict=True))
    assert by_key[2] == pytest.approx(0.2 + 0.5 * 0.9)  # best of 1 and 3
    assert by_key[3] == pytest.approx(0.9 + 0.5 * 0.3)
    assert by_key[4] == pytest.approx(0.3 + 0.5 * 0.9)
    assert by_key[1] == pytest.approx(0.1)  # two steps away: it only brings context
    assert by_key[5] == pytest.approx(0.05)
    assert by_key[7] == pytest.approx(0.8 + 0.5 * 0.4)  # 6 is another thread and not in the pool


def test_thread_prior_lifts_turns_of_the_session_that_matches() -> None:
    pool = scoring.Pool(
        keys(1, 2, 3, 10, 20),
        keys(1, 1, 1, 2, -1),  # 20 is not a conversation turn
        np.full(5, -1, dtype=np.int32),
        np.ones(5, dtype=np.bool_),
        (),
        frozenset(),
        True,
    )
    scores = np.array([0.9, 0.9, 0.7, 0.72, 0.75])
    lifted = scoring.with_thread_prior(scores, pool, 0.4)
    assert lifted[2] > lifted[3]  # a weaker turn of the strong session overtakes a stray one
    assert lifted[0] == pytest.approx(0.9 + 0.4 * (0.9 + 0.9 + 0.7) / 3)
    assert lifted[3] == pytest.approx(0.72 * 1.4)
    assert lifted[4] == pytest.approx(0.75 * 1.4)  # a memory is a thread of its own


def test_thread_prior_takes_the_three_best_of_a_long_thread() -> None:
    pool = pool_of(3)
    scores = np.array([0.1, 0.5, 0.9, 0.6, 0.2])
    lifted = scoring.with_thread_prior(scores, pool, 0.4)
    assert lifted.tolist() == pytest.approx((scores + 0.4 * (0.9 + 0.6 + 0.5) / 3).tolist())


def test_thread_prior_without_turns_is_each_memory_on_its_own() -> None:
    scores = np.array([0.9, 0.5])
    assert scoring.with_thread_prior(scores, scoring.alone(keys(1, 2)), 0.4).tolist() == (
        pytest.approx([0.9 * 1.4, 0.5 * 1.4])
    )


def test_a_turn_gains_its_share_of_the_best_session_keyword_score() -> None:
    pool = pool_of(3, 7, 9)  # threads 7 (keys 1-5) and 9 (7-8), the plain 9, 11 of thread 4
    assert pool.keys.tolist() == [1, 2, 3, 4, 5, 7, 8, 9, 11]
    shares = scoring.thread_shares(pool, keys(9, 7, 30), np.array([2.0, 4.0, 1.0]))
    assert shares.tolist() == pytest.approx([1.0] * 5 + [0.5, 0.5, 0.0, 0.0])
    nothing = scoring.thread_shares(pool, keys(7), np.array([0.0]))
    assert nothing.tolist() == [0.0] * 9
    assert scoring.thread_shares(pool, keys(), np.zeros(0)).tolist() == [0.0] * 9


def test_ordering_is_best_first_and_keeps_ties_oldest_first() -> None:
    assert scoring.ordered(np.array([0.2, 0.9, 0.2, 0.5])).tolist() == [1, 3, 0, 2]


def reference_pool(first: list[int], facts: TurnFacts) -> tuple[list[int], list[bool]]:
    """The pool's keys and near flags, worked out one key at a time from their definition."""
    thread = dict(zip(facts.seqs.tolist(), facts.threads.tolist(), strict=True))
    chosen = set(first)
    near = {s for s, t in thread.items() if t >= 0 and {s - 1, s, s + 1} & chosen}
    kept = chosen | {
        s for s, t in thread.items() if any(n in near and thread[n] == t for n in (s - 1, s + 1))
    }
    keys = sorted(kept)
    return keys, [k in near for k in keys]


def test_pool_and_neighbour_lifts_match_their_definition_on_random_stores() -> None:
    rng = np.random.default_rng(11)
    for _ in range(300):
        seqs = np.unique(rng.integers(1, 120, int(rng.integers(1, 90)))).astype(np.int64)
        threads = rng.integers(-1, 4, seqs.shape[0]).astype(np.int64)
        store = TurnFacts(
            seqs, threads, rng.integers(-1, 2, seqs.shape[0]).astype(np.int32), ("Ana", "Ben")
        )
        first = np.unique(rng.integers(1, 120, int(rng.integers(1, 25)))).astype(np.int64)
        facts = store.at(around(first))
        pool = scoring.widen(first, facts)
        keys, near = reference_pool(first.tolist(), facts)
        assert pool.keys.tolist() == keys and pool.near.tolist() == near
        scores = rng.random(len(keys))
        lifted = scoring.with_neighbours(scores, pool, 0.5).tolist()
        at = {k: i for i, k in enumerate(keys)}
        thread = dict(zip(keys, pool.threads.tolist(), strict=True))
        for i, key in enumerate(keys):
            beside = [
                scores[at[n]]
                for n in (key - 1, key + 1)
                if n in at and thread[n] == thread[key] >= 0
            ]
            expected = scores[i] + 0.5 * max(beside) if near[i] and beside else scores[i]
            assert lifted[i] == expected

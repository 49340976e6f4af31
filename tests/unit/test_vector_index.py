"""The embedded vector index: exact below the projection threshold, near-exact above it."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from loci.stores.vectors import PROJECT_FROM, Allowed, ExactIndex

DIMENSIONS = 384


def embeddings_like(count: int, seed: int) -> npt.NDArray[np.float32]:
    """Unit vectors with the structure of sentence embeddings: most variance in few directions."""
    rng = np.random.default_rng(seed)
    mixing = rng.standard_normal((48, DIMENSIONS)).astype(np.float32)
    topics = rng.standard_normal((count, 48)).astype(np.float32) @ mixing
    vectors = topics + 0.5 * rng.standard_normal((count, DIMENSIONS)).astype(np.float32) + 3.0
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def filled(
    count: int, namespaces: tuple[str, ...] = ("a",)
) -> tuple[ExactIndex, npt.NDArray[np.float32]]:
    vectors = embeddings_like(count, seed=1)
    index = ExactIndex(DIMENSIONS)
    for start in range(0, count, 5000):
        stop = min(start + 5000, count)
        names = [namespaces[key % len(namespaces)] for key in range(start, stop)]
        index.upsert(list(range(start, stop)), vectors[start:stop], names)
    return index, vectors


def exact_top(
    vectors: npt.NDArray[np.float32], query: npt.NDArray[np.float32], k: int
) -> list[int]:
    return [int(i) for i in np.argsort(-(vectors @ query), kind="stable")[:k]]


@pytest.fixture(scope="module")
def large() -> tuple[ExactIndex, npt.NDArray[np.float32]]:
    return filled(PROJECT_FROM + 5000, namespaces=("a", "b", "c"))


def test_small_index_is_exact() -> None:
    index, vectors = filled(3000)
    queries = embeddings_like(20, seed=2)
    for query in queries:
        assert [hit.key for hit in index.search(query, 10)] == exact_top(vectors, query, 10)


def test_large_index_matches_exact_search(
    large: tuple[ExactIndex, npt.NDArray[np.float32]],
) -> None:
    index, vectors = large
    queries = embeddings_like(50, seed=3)
    overlap = [
        len({hit.key for hit in index.search(query, 10)} & set(exact_top(vectors, query, 10))) / 10
        for query in queries
    ]
    assert np.mean(overlap) >= 0.98
    hit = index.search(queries[0], 1)[0]
    assert hit.similarity == pytest.approx(float(vectors[hit.key] @ queries[0]), abs=1e-5)


def test_large_index_applies_filters_before_ranking(
    large: tuple[ExactIndex, npt.NDArray[np.float32]],
) -> None:
    index, _ = large
    query = embeddings_like(1, seed=4)[0]
    in_b = index.search(query, 20, Allowed(namespaces=frozenset(["b"])))
    assert len(in_b) == 20 and all(hit.key % 3 == 1 for hit in in_b)
    few = np.array([5, 17, PROJECT_FROM + 1], dtype=np.int64)
    found = sorted(hit.key for hit in index.search(query, 10, Allowed(keys=few)))
    assert found == [5, 17, PROJECT_FROM + 1]
    assert index.search(query, 5, Allowed(namespaces=frozenset(["missing"]))) == []


def test_large_index_stays_consistent_after_deletes_and_updates() -> None:
    index, vectors = filled(PROJECT_FROM + 100)
    query = vectors[42]
    assert index.search(query, 1)[0].key == 42
    index.delete([42])
    assert 42 not in {hit.key for hit in index.search(query, 50)}
    index.upsert([7], query.reshape(1, -1), ["a"])  # key 7 now holds 42's vector
    top = index.search(query, 1)[0]
    assert top.key == 7 and top.similarity == pytest.approx(1.0, abs=1e-5)
    assert index.count() == PROJECT_FROM + 99


@pytest.mark.parametrize("size", [100, 9_000, 50_000])
@pytest.mark.parametrize("count", [1, 50, 1000])
def test_best_positions_hold_every_top_score(size: int, count: int) -> None:
    from loci.stores.vectors import _best

    scores = np.random.default_rng(size + count).standard_normal(size).astype(np.float32)
    scores[::7] = -np.inf  # filtered-out rows
    chosen = set(_best(scores, count).tolist())
    expected = set(np.argsort(-scores, kind="stable")[: min(count, size)].tolist())
    assert expected <= chosen
    assert len(chosen) <= 4 * count + 4096


def test_best_positions_with_ties_still_cover_the_count() -> None:
    from loci.stores.vectors import _best

    assert len(_best(np.zeros(40_000, dtype=np.float32), 10)) >= 10
    assert len(_best(np.zeros(40_000, dtype=np.float32), 30_000)) >= 30_000

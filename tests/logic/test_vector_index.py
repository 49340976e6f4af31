"""The embedded vector index: exact below the shortlist threshold, near-exact above it."""

from __future__ import annotations

import sys

import numpy as np
import numpy.typing as npt
import pytest

from loci.errors import ConfigurationError
from loci.storage.indexes.vectors.embedded import (
    SHORTLIST_FROM,
    SHORTLIST_SHARE,
    EmbeddedIndex,
    best_positions,
)
from loci.storage.indexes.vectors.protocol import Allowed
from loci.storage.indexes.vectors.scan_kernels import KernelName, load_kernel
from loci.storage.indexes.vectors.signcodes import SAMPLE_SIZE as SIGN_SAMPLE_SIZE
from loci.storage.indexes.vectors.signcodes import SignCodes, shortlist

DIMENSIONS = 384


def embeddings_like(count: int, seed: int) -> npt.NDArray[np.float32]:
    """Unit vectors with the structure of sentence embeddings: most variance in few directions."""
    rng = np.random.default_rng(seed)
    mixing = rng.standard_normal((48, DIMENSIONS)).astype(np.float32)
    topics = rng.standard_normal((count, 48)).astype(np.float32) @ mixing
    vectors = topics + 0.5 * rng.standard_normal((count, DIMENSIONS)).astype(np.float32) + 3.0
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


#: Every test of a large index runs with both scan kernels.
KERNELS: list[KernelName] = ["faiss", "numpy"]


def filled(
    count: int, namespaces: tuple[str, ...] = ("a",), kernel: KernelName = "auto"
) -> tuple[EmbeddedIndex, npt.NDArray[np.float32]]:
    vectors = embeddings_like(count, seed=1)
    index = EmbeddedIndex(DIMENSIONS, kernel=kernel)
    for start in range(0, count, 5000):
        stop = min(start + 5000, count)
        names = [namespaces[key % len(namespaces)] for key in range(start, stop)]
        index.upsert(list(range(start, stop)), vectors[start:stop], names)
    return index, vectors


def exact_top(
    vectors: npt.NDArray[np.float32], query: npt.NDArray[np.float32], k: int
) -> list[int]:
    return [int(i) for i in np.argsort(-(vectors @ query), kind="stable")[:k]]


@pytest.fixture(scope="module", params=KERNELS)
def large(request: pytest.FixtureRequest) -> tuple[EmbeddedIndex, npt.NDArray[np.float32]]:
    index, vectors = filled(SHORTLIST_FROM + 5000, ("a", "b", "c"), kernel=request.param)
    assert index.kernel().name == request.param
    return index, vectors


def test_small_index_is_exact() -> None:
    index, vectors = filled(3000)
    queries = embeddings_like(20, seed=2)
    for query in queries:
        assert [hit.key for hit in index.search(query, 10)] == exact_top(vectors, query, 10)


@pytest.mark.parametrize("kernel", KERNELS)
def test_shortlisted_search_matches_exact_search_on_real_embeddings(
    novel_embeddings: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], kernel: KernelName
) -> None:
    """Sign codes are judged on what they will index: MiniLM embeddings of real sentences,
    searched with questions and with other sentences of the same book."""
    vectors, queries = novel_embeddings
    index = EmbeddedIndex(DIMENSIONS, shortlist_from=500, kernel=kernel)
    index.upsert(list(range(len(vectors))), vectors, ["a"] * len(vectors))
    for k, floor in ((10, 0.95), (50, 0.98)):
        overlap = [
            len({hit.key for hit in index.search(q, k)} & set(exact_top(vectors, q, k))) / k
            for q in queries
        ]
        assert np.mean(overlap) >= floor, (k, np.mean(overlap))
    hit = index.search(queries[0], 1)[0]
    assert hit.similarity == pytest.approx(float(vectors[hit.key] @ queries[0]), abs=1e-5)


def test_shortlisted_search_finds_a_stored_vector_first(
    large: tuple[EmbeddedIndex, npt.NDArray[np.float32]],
) -> None:
    index, vectors = large
    for key in (0, 777, SHORTLIST_FROM + 4000):
        top = index.search(vectors[key], 3)
        assert top[0].key == key and top[0].similarity == pytest.approx(1.0, abs=1e-5)


def test_large_index_applies_filters_before_ranking(
    large: tuple[EmbeddedIndex, npt.NDArray[np.float32]],
) -> None:
    index, _ = large
    query = embeddings_like(1, seed=4)[0]
    in_b = index.search(query, 20, Allowed(namespaces=frozenset(["b"])))
    assert len(in_b) == 20 and all(hit.key % 3 == 1 for hit in in_b)
    few = np.array([5, 17, SHORTLIST_FROM + 1], dtype=np.int64)
    found = sorted(hit.key for hit in index.search(query, 10, Allowed(keys=few)))
    assert found == [5, 17, SHORTLIST_FROM + 1]
    assert index.search(query, 5, Allowed(namespaces=frozenset(["missing"]))) == []


def test_a_filter_in_step_with_the_sample_stride_still_scores_a_shortlist(
    large: tuple[EmbeddedIndex, npt.NDArray[np.float32]],
) -> None:
    """The shortlist's cut-off is read off every n-th row: a filter admitting rows in step with
    that stride must not leave the sample with excluded rows only (all admitted rows would be
    scored exactly: 11 ms instead of 2 at 100k)."""
    index, vectors = large
    stride = len(vectors) // SIGN_SAMPLE_SIZE
    admitted = np.arange(1, len(vectors), stride, dtype=np.int64)
    query = embeddings_like(1, seed=8)[0]
    wanted = int(len(vectors) * SHORTLIST_SHARE)
    rows = index._candidates(query, 10, index._mask(Allowed(keys=admitted)))
    assert rows is not None and set(rows.tolist()) <= set(admitted.tolist())
    assert wanted <= len(rows) <= 2 * wanted < len(admitted)
    overlap = []
    for query in embeddings_like(10, seed=9):
        found = {hit.key for hit in index.search(query, 10, Allowed(keys=admitted))}
        exact = admitted[exact_top(vectors[admitted], query, 10)].tolist()
        assert found <= set(admitted.tolist())
        overlap.append(len(found & set(exact)) / 10)
    assert np.mean(overlap) >= 0.8


def test_a_shortlist_whose_sample_misjudges_falls_back_to_the_full_histogram() -> None:
    distances = np.full(100_000, 385, dtype=np.uint16)
    distances[1::24] = np.arange(1, 100_000, 24) % 300  # the sample (every 24th row) sees none
    chosen = shortlist(distances, 1000, 385)
    assert 1000 <= len(chosen) <= 1100
    assert int(distances[chosen].max()) <= np.sort(distances)[1099]


def gathered(
    vectors: npt.NDArray[np.float32], query: npt.NDArray[np.float32], keys: list[int]
) -> npt.NDArray[np.float64]:
    return (vectors[keys] @ query).astype(np.float64)


def test_similarities_after_a_scan_are_those_of_the_rows() -> None:
    index, vectors = filled(3000)
    query = embeddings_like(1, seed=5)[0]
    keys = np.array([0, 5, 2999, 123_456], dtype=np.int64)  # the last is not indexed
    before = index.similarities(query, keys)  # no scan yet: gathered
    index.search(query, 10)  # a full scan, whose scores the next call reads
    after = index.similarities(query, keys)
    assert np.isnan(after[3]) and np.isnan(before[3])
    assert np.allclose(after[:3], gathered(vectors, query, [0, 5, 2999]), atol=1e-6)
    assert np.allclose(after[:3], before[:3], atol=1e-6)
    other = embeddings_like(2, seed=6)[1]  # another query is never answered from the scan
    assert np.allclose(index.similarities(other, keys[:3]), gathered(vectors, other, [0, 5, 2999]))


def test_similarities_after_a_change_never_read_a_stale_scan() -> None:
    index, vectors = filled(3000)
    query = vectors[5].copy()
    index.search(query, 10)
    index.upsert([5], -query.reshape(1, -1), ["a"])  # 5 now points the other way
    assert index.similarities(query, np.array([5]))[0] == pytest.approx(-1.0, abs=1e-5)
    index.search(query, 10)
    index.delete([0])  # 2999 moves into row 0
    moved = index.similarities(query, np.array([0, 2999]))
    assert np.isnan(moved[0])
    assert moved[1] == pytest.approx(float(vectors[2999] @ query), abs=1e-6)
    index.search(query, 10)
    index.clear()
    assert np.isnan(index.similarities(query, np.array([5, 2999]))).all()


def test_namespace_filters_follow_rows_that_move_between_namespaces() -> None:
    index, vectors = filled(300, ("a", "b"))  # even keys in a, odd keys in b
    query = embeddings_like(1, seed=7)[0]

    def found(*names: str) -> set[int]:
        return {hit.key for hit in index.search(query, 300, Allowed(namespaces=frozenset(names)))}

    assert found("a", "b") == set(range(300))  # every row admitted: no mask at all
    assert found("a") == set(range(0, 300, 2))
    index.upsert([1], vectors[1:2], ["a"])  # 1 moves to a
    index.delete([0, 2])
    assert found("a") == {1} | set(range(4, 300, 2))
    assert found("b") == set(range(3, 300, 2))
    index.delete(list(range(1, 300, 2)))  # b is empty now; a holds every row
    assert found("a") == set(range(4, 300, 2)) and found("b") == set()
    assert found("a", "nowhere") == found("a") and found("nowhere") == set()


@pytest.mark.parametrize("kernel", KERNELS)
def test_a_filter_admitting_few_rows_ranks_them_as_a_full_scan_does(kernel: KernelName) -> None:
    """A filter admitting under GATHER_SHARE of the rows scores them alone: the same hits,
    order and similarities as the full scan, with the kernel loaded or not."""
    index, vectors = filled(6000, ("a",) * 9 + ("b",), kernel=kernel)  # every 10th row in b
    if kernel == "faiss":
        index.warm()  # loads the kernel with the fast-scan codes
    query = embeddings_like(1, seed=16)[0]
    in_b = [k for k in exact_top(vectors, query, len(vectors)) if k % 10 == 9][:25]
    few = np.array([3, 8, 77, 1234, 5999], dtype=np.int64)
    for allowed, expected in (
        (Allowed(namespaces=frozenset(["b"])), in_b),
        (Allowed(keys=few), [k for k in exact_top(vectors, query, len(vectors)) if k in few]),
    ):
        hits = index.search(query, 25, allowed)
        assert [hit.key for hit in hits] == expected
        assert [hit.similarity for hit in hits] == pytest.approx(
            [float(vectors[hit.key] @ query) for hit in hits], abs=1e-5
        )
        assert [hit.key for hit in index.exact_search(query, 25, allowed)] == expected


def test_batches_with_repeated_and_known_keys_match_a_row_by_row_reference() -> None:
    """Upserts mixing new keys, known keys (some changing namespace) and keys given twice in
    one call: the last vector and namespace of each key wins, as if applied one by one."""
    rng = np.random.default_rng(3)
    pool = embeddings_like(400, seed=5)
    index = EmbeddedIndex(DIMENSIONS)
    reference: dict[int, tuple[int, str]] = {}  # key -> (vector in pool, namespace)
    for _ in range(60):
        keys = rng.integers(0, 120, size=int(rng.integers(1, 25))).tolist()
        picks = rng.integers(0, 400, size=len(keys))
        names = [str(rng.choice(["a", "b", "c"])) for _ in keys]
        index.upsert(keys, pool[picks], names)
        for key, pick, name in zip(keys, picks.tolist(), names, strict=True):
            reference[key] = (pick, name)
        gone = rng.integers(0, 120, size=int(rng.integers(0, 6))).tolist()
        index.delete(gone)
        for key in gone:
            reference.pop(key, None)
        assert index.count() == len(reference)
        for key, (pick, _) in reference.items():
            assert np.array_equal(index.get(key), pool[pick])
        query = pool[int(rng.integers(0, 400))]
        for name in ("a", "b", "c"):
            hits = index.search(query, 200, Allowed(namespaces=frozenset([name, "x"])))
            assert {hit.key for hit in hits} == {k for k, v in reference.items() if v[1] == name}
        everything = index.search(query, 200, Allowed(namespaces=frozenset("abc")))
        assert len(everything) == len(reference)


@pytest.mark.parametrize("kernel", KERNELS)
def test_large_index_stays_consistent_after_deletes_and_updates(kernel: KernelName) -> None:
    index, vectors = filled(SHORTLIST_FROM + 100, kernel=kernel)
    query = vectors[42]
    assert index.search(query, 1)[0].key == 42
    index.delete([42])
    assert 42 not in {hit.key for hit in index.search(query, 50)}
    index.upsert([7], query.reshape(1, -1), ["a"])  # key 7 now holds 42's vector
    top = index.search(query, 1)[0]
    assert top.key == 7 and top.similarity == pytest.approx(1.0, abs=1e-5)
    assert index.count() == SHORTLIST_FROM + 99


@pytest.mark.parametrize("size", [100, 9_000, 50_000])
@pytest.mark.parametrize("count", [1, 50, 1000])
def test_best_positions_hold_every_top_score(size: int, count: int) -> None:
    scores = np.random.default_rng(size + count).standard_normal(size).astype(np.float32)
    scores[::7] = -np.inf  # filtered-out rows
    chosen = set(best_positions(scores, count).tolist())
    expected = set(np.argsort(-scores, kind="stable")[: min(count, size)].tolist())
    assert expected <= chosen
    assert len(chosen) == min(count, size)  # no ties among random scores


def test_best_positions_with_ties_keep_every_tied_score_in_order() -> None:
    scores = np.array([3, 2, 1, 2, 2, 0], dtype=np.float32)
    assert best_positions(scores, 2).tolist() == [0, 1, 3, 4]
    assert len(best_positions(np.zeros(40_000, dtype=np.float32), 10)) == 40_000
    assert len(best_positions(np.zeros(40_000, dtype=np.float32), 30_000)) == 40_000
    sampled = np.random.default_rng(3).standard_normal(50_000).astype(np.float32)
    chosen = best_positions(sampled, 20)
    assert (np.diff(chosen) > 0).all()


@pytest.mark.parametrize("kernel", KERNELS)
def test_sign_codes_measure_how_many_signs_differ(kernel: KernelName) -> None:
    vectors = embeddings_like(200, seed=5)
    codes = SignCodes.fit(vectors)
    encoded = codes.encode(vectors)
    assert encoded.shape == (200, 48)
    table = load_kernel(kernel).table(codes.code_bytes, 256)
    table.write(np.arange(200, dtype=np.int64), encoded)
    distances = table.distances(codes.encode(vectors[3:4]), 200)
    assert distances.shape == (200,) and distances[3] == 0
    flipped = 2 * codes.centre - vectors[3]  # every component on the other side of the centre
    assert table.distances(codes.encode(flipped.reshape(1, -1)), 200)[3] == DIMENSIONS
    assert int(distances.max()) < codes.excluded


@pytest.mark.parametrize("size", [50, 5_000, 100_000])
@pytest.mark.parametrize("count", [1, 40, 2000])
def test_shortlist_holds_every_row_nearer_than_its_cut_off(size: int, count: int) -> None:
    rng = np.random.default_rng(size + count)
    distances = rng.binomial(384, 0.5, size).astype(np.uint16)
    excluded = 385
    distances[::5] = excluded  # rows a filter left out
    chosen = shortlist(distances, count, excluded)
    allowed = int(np.count_nonzero(distances < excluded))
    assert len(chosen) >= min(count, allowed)
    assert np.all(distances[chosen] < excluded)
    assert np.all(np.diff(chosen) > 0)
    cut_off = int(distances[chosen].max())
    assert set(np.flatnonzero(distances < cut_off).tolist()) <= set(chosen.tolist())


@pytest.mark.parametrize("kernel", KERNELS)
def test_sign_codes_follow_growth_refits_and_deletes(kernel: KernelName) -> None:
    """Every row stays findable by its own vector while the index grows past refits (at 2x the
    fitted size), resizes its arrays, and moves rows into the holes deletes leave."""
    vectors = embeddings_like(6000, seed=6)
    index = EmbeddedIndex(DIMENSIONS, initial_capacity=256, shortlist_from=1000, kernel=kernel)
    for start in range(0, 6000, 700):
        stop = min(start + 700, 6000)
        index.upsert(list(range(start, stop)), vectors[start:stop], ["a"] * (stop - start))
    index.delete(list(range(0, 6000, 3)))
    index.upsert([1], vectors[4000].reshape(1, -1), ["a"])  # key 1 now holds 4000's vector
    for key in range(2, 6000, 97):
        if key % 3 == 0:
            assert key not in {hit.key for hit in index.search(vectors[key], 5)}
            continue
        top = index.search(vectors[key], 1)[0]
        assert top.key == key and top.similarity == pytest.approx(1.0, abs=1e-5)
    assert {hit.key for hit in index.search(vectors[4000], 2)} == {1, 4000}


def test_small_indexes_never_load_a_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """faiss loads when an index grows to shortlisting size: a small store works without it,
    even when the settings ask for it; growing past the threshold then fails before anything
    changes."""
    monkeypatch.setitem(sys.modules, "faiss", None)  # makes `import faiss` fail
    index, vectors = filled(3000, kernel="faiss")
    index.delete([5])
    assert index.search(vectors[7], 3)[0].key == 7
    more = SHORTLIST_FROM - 2999
    with pytest.raises(ConfigurationError, match="vector_kernel"):
        index.upsert(list(range(3000, 3000 + more)), embeddings_like(more, 7), ["a"] * more)
    assert index.count() == 2999
    assert [hit.key for hit in index.search(vectors[7], 10)] == [
        key for key in exact_top(vectors[:3000], vectors[7], 11) if key != 5
    ][:10]

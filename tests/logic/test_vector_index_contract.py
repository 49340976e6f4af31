"""One contract every `VectorIndex` passes: the plain reference, and `EmbeddedIndex` with each
scan kernel, small (full scans) and large (shortlists). Results must match the reference."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

from loci.storage.indexes.vectors.embedded import EmbeddedIndex
from loci.storage.indexes.vectors.plain import PlainVectorIndex
from loci.storage.indexes.vectors.protocol import Allowed, VectorIndex
from tests.logic.test_vector_index import DIMENSIONS, embeddings_like

Factory = Callable[[], VectorIndex]
IMPLEMENTATIONS: dict[str, Factory] = {
    "plain": lambda: PlainVectorIndex(DIMENSIONS),
    "exact-numpy": lambda: EmbeddedIndex(DIMENSIONS, kernel="numpy", fast_scan_from=None),
    "exact-faiss": lambda: EmbeddedIndex(DIMENSIONS, kernel="faiss"),
}
NAMESPACES = ("a", "b", "c")


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def make(request: pytest.FixtureRequest) -> Factory:
    return IMPLEMENTATIONS[request.param]


def stocked(index: VectorIndex, count: int = 600) -> npt.NDArray[np.float32]:
    vectors = embeddings_like(count, seed=5)
    index.reserve(count)
    index.upsert(list(range(count)), vectors, [NAMESPACES[k % 3] for k in range(count)])
    return vectors


def reference(vectors: npt.NDArray[np.float32], query, k: int, admitted=None) -> list[int]:
    scores = vectors @ query
    keys = np.arange(vectors.shape[0]) if admitted is None else np.asarray(admitted)
    order = sorted(keys.tolist(), key=lambda key: (-float(scores[key]), key))
    return order[:k]


def test_search_is_exact_and_best_first(make: Factory) -> None:
    index = make()
    vectors = stocked(index)
    for query in embeddings_like(8, seed=6):
        hits = index.search(query, 10)
        assert [hit.key for hit in hits] == reference(vectors, query, 10)
        assert [h.similarity for h in hits] == pytest.approx(
            [float(vectors[h.key] @ query) for h in hits], abs=1e-5
        )


def test_filters_by_namespace_and_by_keys(make: Factory) -> None:
    index = make()
    vectors = stocked(index)
    query = embeddings_like(1, seed=7)[0]
    in_b = [k for k in range(600) if NAMESPACES[k % 3] == "b"]
    hits = index.search(query, 5, Allowed(namespaces=frozenset({"b"})))
    assert [h.key for h in hits] == reference(vectors, query, 5, in_b)
    chosen = np.array([3, 30, 300, 301, 599], dtype=np.int64)
    hits = index.search(query, 10, Allowed(keys=chosen))
    assert [h.key for h in hits] == reference(vectors, query, 10, chosen)
    both = index.search(query, 10, Allowed(namespaces=frozenset({"a"}), keys=chosen))
    assert {h.key for h in both} == {k for k in chosen.tolist() if k % 3 == 0}
    assert index.search(query, 5, Allowed(namespaces=frozenset({"none"}))) == []


def test_upsert_replaces_delete_removes_and_clear_empties(make: Factory) -> None:
    index = make()
    vectors = stocked(index)
    query = vectors[10]
    assert index.search(query, 1)[0].key == 10
    index.upsert([10], vectors[20:21], ["a"])  # key 10 now holds 20's vector
    assert index.count() == 600
    assert {h.key for h in index.search(vectors[20], 2)} == {10, 20}
    index.delete([10, 20, 12345])
    assert index.count() == 598
    assert index.get(10) is None and index.get(21) is not None
    assert np.allclose(index.get(21), vectors[21])  # type: ignore[arg-type]
    assert {10, 20}.isdisjoint(h.key for h in index.search(vectors[20], 5))
    index.clear()
    assert index.count() == 0 and index.search(query, 5) == []


def test_similarities_of_keys_known_and_not(make: Factory) -> None:
    index = make()
    vectors = stocked(index)
    query = embeddings_like(1, seed=8)[0]
    keys = np.array([0, 599, 42, 700], dtype=np.int64)
    found = index.similarities(query, keys)
    assert found[:3] == pytest.approx([float(vectors[k] @ query) for k in (0, 599, 42)], abs=1e-5)
    assert np.isnan(found[3])


def test_edges_empty_index_and_more_asked_than_held(make: Factory) -> None:
    index = make()
    query = embeddings_like(1, seed=9)[0]
    assert index.search(query, 5) == [] and index.count() == 0
    index.warm()
    vectors = embeddings_like(3, seed=10)
    index.upsert([7, 8, 9], vectors, ["a", "a", "b"])
    assert sorted(h.key for h in index.search(query, 50)) == [7, 8, 9]
    assert index.search(query, 0) == []
    with pytest.raises(ValueError, match="dimensions"):
        index.upsert([1], vectors[:, :10], ["a"])

"""Fast-scan codes: kept in step with the index's rows, and the unfiltered searches they serve."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.settings import load_settings
from loci.storage.indexes.vectors.embedded import FASTSCAN_FROM, EmbeddedIndex
from loci.storage.indexes.vectors.fastscan import FastScanCodes
from loci.storage.indexes.vectors.protocol import Allowed
from loci.storage.indexes.vectors.scan_kernels import load_kernel
from loci.toolsets.memory.transfer import ImportOptions
from tests.logic.test_vector_index import (
    DIMENSIONS,
    embeddings_like,
    exact_top,
)

faiss = pytest.importorskip("faiss")


def test_codes_follow_appends_rewrites_moves_and_cuts() -> None:
    vectors = embeddings_like(3000, seed=5)
    codes = FastScanCodes.trained(faiss, vectors[:1000])
    reference = list(vectors[:1000])
    rng = np.random.default_rng(0)
    spare = iter(vectors[1000:])
    for _ in range(40):
        step = rng.integers(4)
        if step == 0:
            added = np.array([next(spare) for _ in range(rng.integers(1, 40))])
            codes.append(added)
            reference += list(added)
        elif step == 1:
            rows = rng.choice(len(reference), 5, replace=False).astype(np.int64)
            new = np.array([next(spare) for _ in rows])
            codes.write(rows, new)
            for row, vector in zip(rows, new, strict=True):
                reference[row] = vector
        elif step == 2:
            source, target = (int(r) for r in rng.choice(len(reference), 2, replace=False))
            codes.move(source, target)
            reference[target] = reference[source]
        else:
            size = len(reference) - int(rng.integers(1, 60))
            codes.truncate(size)
            del reference[size:]
    assert len(codes) == len(reference)
    expected = codes.encode(np.array(reference))
    assert all(np.array_equal(codes.code(row), expected[row]) for row in range(len(reference)))
    for row in rng.choice(len(reference), 20, replace=False):
        found = codes.nearest(reference[row], 6)
        assert row in found and found.max() < len(reference)


def test_codes_refuse_positions_outside_the_rows() -> None:
    vectors = embeddings_like(800, seed=6)
    codes = FastScanCodes.trained(faiss, vectors)
    with pytest.raises(IndexError):
        codes.write(np.array([800]), vectors[:1])
    with pytest.raises(IndexError):
        codes.move(0, 800)
    with pytest.raises(IndexError):
        codes.truncate(801)
    assert len(codes) == 800


def test_nearest_rows_are_found_whatever_faiss_s_output_memory_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """faiss's search for up to 20 results starts from the value in its output buffer, which
    its Python wrapper leaves uninitialised: FLT_MAX there admitted no row at all."""
    vectors = embeddings_like(2000, seed=7)
    codes = FastScanCodes.trained(faiss, vectors)
    empty = np.empty

    def stale(shape: Any, dtype: Any = float, **kwargs: Any) -> npt.NDArray[Any]:
        array = empty(shape, dtype, **kwargs)
        array.fill(np.finfo(np.float32).max if np.dtype(dtype).kind == "f" else -1)
        return array

    monkeypatch.setattr(np, "empty", stale)
    for count in (6, 20, 60):
        found = codes.nearest(vectors[11], count)
        assert len(found) == count and 11 in found


def test_unfiltered_search_of_a_large_index_scores_its_shortlist_exactly() -> None:
    vectors = embeddings_like(FASTSCAN_FROM + 1000, seed=8)
    index = EmbeddedIndex(DIMENSIONS)
    index.upsert(list(range(len(vectors))), vectors, ["a"] * len(vectors))
    assert index.fast_scan_codes is None  # built on first use
    queries = embeddings_like(20, seed=9)
    overlap = []
    for query in queries:
        hits = index.search(query, 10)
        overlap.append(len({h.key for h in hits} & set(exact_top(vectors, query, 10))) / 10)
        assert [h.similarity for h in hits] == pytest.approx(
            [float(vectors[h.key] @ query) for h in hits], abs=1e-5
        )
    assert index.fast_scan_codes is not None
    assert np.mean(overlap) >= 0.99, np.mean(overlap)


def test_fast_scan_codes_follow_deletes_updates_and_growth() -> None:
    vectors = embeddings_like(3 * FASTSCAN_FROM, seed=10)
    index = EmbeddedIndex(DIMENSIONS)
    first = FASTSCAN_FROM + 10
    index.upsert(list(range(first)), vectors[:first], ["a"] * first)
    index.warm()
    built = index.fast_scan_codes
    assert built is not None and built.trained_size == first
    index.delete([3, 5, first - 1])
    index.upsert([7, first], vectors[[3, first]], ["a", "a"])  # 7 takes 3's vector
    top = index.search(vectors[3], 1)[0]
    assert top.key == 7 and top.similarity == pytest.approx(1.0, abs=1e-5)
    assert {hit.key for hit in index.search(vectors[5], 20)}.isdisjoint({5, first - 1})
    assert len(built) == index.count()
    grown = list(range(first + 1, 2 * first + 5))
    index.upsert(grown, vectors[grown], ["a"] * len(grown))
    index.warm()
    assert index.fast_scan_codes is not built  # grown to twice its training size: trained again
    assert index.search(vectors[grown[-1]], 1)[0].key == grown[-1]


def test_equal_scores_go_to_the_first_stored_whatever_the_path() -> None:
    """The same text stored under several keys: a shortlist returns the same of them as a
    full scan (the first stored), not whichever its partition kept."""
    vectors = embeddings_like(FASTSCAN_FROM + 200, seed=15)
    copies = [5, 100, 2000, 4100]
    vectors[copies] = vectors[5]
    index = EmbeddedIndex(DIMENSIONS)
    index.upsert(list(range(len(vectors))), vectors, ["a"] * len(vectors))
    for k in (1, 2, 3):
        assert [hit.key for hit in index.search(vectors[5], k)] == copies[:k]
        assert [hit.key for hit in index.exact_search(vectors[5], k)] == copies[:k]
    assert index.fast_scan_codes is not None


def test_filtered_searches_and_large_asks_scan_exactly() -> None:
    vectors = embeddings_like(FASTSCAN_FROM + 500, seed=11)
    index = EmbeddedIndex(DIMENSIONS)
    names = ["a" if key % 2 else "b" for key in range(len(vectors))]
    index.upsert(list(range(len(vectors))), vectors, names)
    query = embeddings_like(1, seed=12)[0]
    in_a = index.search(query, 30, Allowed(namespaces=frozenset(["a"])))
    expected = [k for k in exact_top(vectors, query, len(vectors)) if k % 2][:30]
    assert [hit.key for hit in in_a] == expected
    many = index.search(query, 200)  # 1,200 candidates would be over a tenth of the rows
    assert [hit.key for hit in many] == exact_top(vectors, query, 200)


def test_an_index_without_fast_scan_or_faiss_builds_no_codes() -> None:
    vectors = embeddings_like(FASTSCAN_FROM + 100, seed=13)
    for index in (
        EmbeddedIndex(DIMENSIONS, fast_scan_from=None),
        EmbeddedIndex(DIMENSIONS, kernel="numpy"),
    ):
        index.upsert(list(range(len(vectors))), vectors, ["a"] * len(vectors))
        index.warm()
        assert index.search(vectors[9], 1)[0].key == 9
        assert index.fast_scan_codes is None
    assert load_kernel("numpy").fast_scan_codes(vectors) is None


def test_fast_scan_search_matches_exact_search_on_real_embeddings(
    novel_embeddings: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]],
) -> None:
    """Judged on what it will index: MiniLM embeddings of real sentences, searched with
    questions and with other sentences of the same book."""
    vectors, queries = novel_embeddings
    index = EmbeddedIndex(DIMENSIONS, fast_scan_from=500)
    index.upsert(list(range(len(vectors))), vectors, ["a"] * len(vectors))
    for k in (10, 20):
        overlap = [
            len({hit.key for hit in index.search(q, k)} & set(exact_top(vectors, q, k))) / k
            for q in queries
        ]
        assert np.mean(overlap) >= 0.99, (k, np.mean(overlap))
    assert index.fast_scan_codes is not None


def test_a_served_store_builds_codes_at_warm_up_and_a_one_command_app_never(
    app: App, home: Path, embedder: OnnxMiniLM
) -> None:
    """`loci serve` builds the codes while it warms up; a CLI command (one search at most)
    scans instead, since training the codes costs more than the scans they would save."""
    vectors = embeddings_like(FASTSCAN_FROM + 50, seed=14)
    stamp = "2026-01-01T00:00:00.000000Z"
    memories = [
        {
            "id": str(uuid.UUID(int=key + 1)),
            "content": f"note number {key}",
            "namespace": "default",
            "tags": [],
            "importance": 0.5,
            "source": "import",
            "metadata": {},
            "created_at": stamp,
            "updated_at": stamp,
            "last_accessed": stamp,
            "access_count": 0,
            "vector": vector.tolist(),
        }
        for key, vector in enumerate(vectors)
    ]
    data = {"embedding_model": embedder.identity.name, "memories": memories}
    options = ImportOptions(skip_duplicates=False, recompute_vectors=False)
    assert app.transfer.import_data(data, options).imported == len(memories)
    served = build_app(load_settings(home=home), embedder=embedder)
    one_command = build_app(load_settings(home=home), embedder=embedder, long_lived=False)
    try:
        served.memory.warm_up()
        assert isinstance(served.engine.indexes.vectors, EmbeddedIndex)
        assert served.engine.indexes.vectors.fast_scan_codes is not None
        found = one_command.memory.recall("note number 7", limit=3, hybrid_alpha=1.0)
        assert len(found.memories) == 3
        assert isinstance(one_command.engine.indexes.vectors, EmbeddedIndex)
        assert one_command.engine.indexes.vectors.fast_scan_codes is None
    finally:
        served.close()
        one_command.close()

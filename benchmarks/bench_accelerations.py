"""What each acceleration earns: the recall ratio at N memories with it and without it.

One store (novel sentences, as `bench_memory.py` fills it) is served by apps that differ only in
one acceleration: the fast-scan codes, faiss's scan kernel (numpy's loops instead), the sign
codes' shortlist for filtered searches, the mirror of filter fields. Each recall is timed
interleaved with the bare embedding of its query; an acceleration stays where it moves a ratio
by 0.05 or more.

    python benchmarks/bench_accelerations.py [--size 100000]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import replace
from typing import Any

from bench_memory import QUERIES, WORDS, fill, novel_sentences
from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.settings import load_settings
from loci.storage.indexes.facets.mirror import MemoryFacets
from loci.storage.indexes.vectors.embedded import EmbeddedIndex
from loci.storage.indexes.vectors.memory_vectors import MemoryVectors

VARIANTS = ["all on", "no fast-scan codes", "numpy kernel", "no sign codes", "no facets mirror"]
FILTER = {"tags": {"contains": "t3"}}


class NoFacets(MemoryFacets):
    """A facets mirror that never answers: filters go to SQL."""

    def matching(self, *args: Any, **kwargs: Any) -> None:
        return None


def served(home: str, embedder: OnnxMiniLM, variant: str) -> App:
    app = build_app(load_settings(home=home), embedder=embedder)
    dimensions = embedder.identity.dimensions
    vectors = {
        "no fast-scan codes": EmbeddedIndex(dimensions, fast_scan_from=None),
        "numpy kernel": EmbeddedIndex(dimensions, kernel="numpy"),
        "no sign codes": EmbeddedIndex(dimensions, shortlist_from=10**12),
    }.get(variant, app.engine.indexes.vectors)
    facets = NoFacets() if variant == "no facets mirror" else app.engine.indexes.facets
    swapped = {MemoryVectors: MemoryVectors(vectors, dimensions), MemoryFacets: facets}
    followed = tuple(swapped.get(type(index), index) for index in app.engine.indexes.followed)
    app.engine.use_indexes(
        replace(app.engine.indexes, vectors=vectors, facets=facets, followed=followed)
    )
    app.memory.warm_up()
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    embedder = OnnxMiniLM()
    sentences = novel_sentences()[:3000]
    vectors = embedder.embed(sentences)
    queries = QUERIES + [f"what happened with {word}" for word in WORDS[:5]]
    with tempfile.TemporaryDirectory() as home:
        filler = build_app(load_settings(home=home), embedder=embedder)
        fill(filler, args.size, sentences, vectors)
        filler.close()
        apps = {variant: served(home, embedder, variant) for variant in VARIANTS}
        for kind, spec in (("unfiltered", None), ("filtered (a tag, 10 %)", FILTER)):
            times: dict[str, list[float]] = {variant: [] for variant in VARIANTS}
            bare: list[float] = []
            for app in apps.values():  # warm: mirrors load, kernels import
                for query in queries:
                    app.memory.recall(query, 10, filters=spec)
                    app.db.flush_behind()
            for _ in range(args.rounds):
                for query in queries:
                    for variant, app in apps.items():
                        start = time.perf_counter()
                        app.memory.recall(query, 10, filters=spec)
                        times[variant].append((time.perf_counter() - start) * 1000)
                        app.db.flush_behind()
                    start = time.perf_counter()
                    embedder.embed([query])
                    bare.append((time.perf_counter() - start) * 1000)
            floor = statistics.median(bare)
            ratios = ", ".join(
                f"{variant} {statistics.median(times[variant]) / floor:.2f}" for variant in VARIANTS
            )
            print(f"recall @ {args.size} {kind}, ratio to the bare embedding: {ratios}")
        for app in apps.values():
            app.close()


if __name__ == "__main__":
    main()

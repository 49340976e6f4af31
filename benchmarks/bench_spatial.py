"""Spatial tools against one `recall` at the same store size (issue 34: journey <= 2x).

The store is filled as `bench_memory.py` fills it (novel sentences with their real embeddings;
past the distinct sentences, rows repeat with a little noise on the vector). `journey` runs
between pairs of random memories with the default 5 steps; `recall` runs on the queries of
`bench_memory.py`, in the same process, alternating with the journeys.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import numpy as np

from bench_memory import QUERIES, fill, novel_sentences
from loci.app import build_app
from loci.embedding.onnx_minilm import OnnxMiniLM
from loci.settings import load_settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    embedder = OnnxMiniLM()
    embedder.load()
    rng = np.random.default_rng(11)
    sentences = novel_sentences()[: args.size]
    embedded = embedder.embed(sentences)
    with tempfile.TemporaryDirectory() as home:
        app = build_app(load_settings(home=home), embedder=embedder)
        fill(app, args.size, rng, sentences, embedded)
        with app.db.locked() as conn:
            ids = [row[0] for row in conn.execute("SELECT id FROM memories")]
        for query in QUERIES:
            app.memory.recall(query)
        journey_ms: list[float] = []
        recall_ms: list[float] = []
        for n in range(args.repeat):
            start, end = rng.choice(len(ids), size=2, replace=False)
            began = time.perf_counter()
            found = app.journeys.journey(ids[start], ids[end])
            journey_ms.append((time.perf_counter() - began) * 1000)
            began = time.perf_counter()
            app.memory.recall(QUERIES[n % len(QUERIES)])
            recall_ms.append((time.perf_counter() - began) * 1000)
        app.close()
    journey, recall = statistics.median(journey_ms), statistics.median(recall_ms)
    print(
        f"{args.size} memories: journey (5 steps) p50 {journey:.1f} ms, recall p50 {recall:.1f} ms, "
        f"ratio {journey / recall:.2f} (target <= 2); last path density {found.path_density}"
    )


if __name__ == "__main__":
    main()

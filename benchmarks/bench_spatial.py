"""The spatial tools (issue 34): speed against `recall` and against their targets, and quality.

Speed (one process, store filled as `bench_memory.py` fills it: novel sentences with their real
embeddings, repeated with a little noise on the vector past the distinct ones):
- `journey` (5 steps, random pairs) and `wander` (5 steps, regions cached) against one
  `recall` at the same store size, alternating (target <= 2x);
- `regions` on the whole store: first answer (clustering) and the next (cache; target <= 3 s);
- `visualize` of 500 memories in a fresh `loci visualize --format svg` process, to its answer
  (target <= 1.5 s; the public implementation: 4.3 s).

Quality, on a corpus with known groups (`stdlib_corpus.py`, 30 groups):
- `regions` against k-means told the true number of groups (scikit-learn, 10 starts): adjusted
  Rand index over every memory, outliers counted as a group of their own; silhouette;
- `visualize`'s layout: trustworthiness (k = 10) of the t-SNE map of 500 of those memories, and
  UMAP's on the same memories when umap-learn is installed (it is not a dependency: 24-34 s per
  fresh process here).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import numpy as np
from sklearn.cluster import KMeans
from sklearn.manifold import trustworthiness
from sklearn.metrics import adjusted_rand_score

from bench_memory import LOCOMO, NOVELS, QUERIES, fill, novel_sentences
from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.spatial.clustering import cluster, silhouette
from loci.toolsets.memory.spatial.layout import project
from stdlib_corpus import corpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--levels-only", action="store_true", help="only the levels' figures")
    args = parser.parse_args()
    embedder = OnnxMiniLM()
    embedder.load()
    levels(embedder)
    if args.levels_only:
        return
    speed(embedder, args.size, args.repeat)
    visualize_cold(embedder)
    quality(embedder)


def levels(embedder: OnnxMiniLM) -> None:
    """Regions within regions on 10,000 memories: two novels' sentences (4,000 each at most)
    and 2,000 chat turns of the LoCoMo dev file, for each pair of novels. Per level: how many
    regions, and how pure the top level's are (the share of each region's largest source)."""
    from loci.evaluation import locomo
    from loci.toolsets.memory.spatial.levels import level

    if not LOCOMO.exists():
        print("levels: ../shared is not beside the repository; skipped")
        return
    chats = [m.text for c in locomo.load(LOCOMO) for m in c.messages][:2000]
    books = sorted(NOVELS.glob("*.txt"))
    for first, second in ((books[0], books[1]), (books[2], books[3])):
        texts, sources = list(chats), ["chat"] * len(chats)
        for book in (first, second):
            sentences = _sentences_of(book)[500:4500]  # past the front matter
            texts += sentences
            sources += [book.stem] * len(sentences)
        vectors = embedder.embed(texts)
        began = time.perf_counter()
        top = level(vectors, 3, None)
        seconds = time.perf_counter() - began
        inner = [level(vectors[top.labels == region], 3, None).count for region in range(top.count)]
        purity = [
            max(np.unique(np.array(sources)[top.labels == r], return_counts=True)[1])
            / np.sum(top.labels == r)
            for r in range(top.count)
        ]
        print(
            f"levels, {first.stem} + {second.stem} + chat ({len(texts)} memories): top level "
            f"{top.count} regions in {seconds:.1f} s (purity {np.mean(purity):.2f}); within "
            f"them {min(inner)}-{max(inner)} regions, median {int(np.median(inner))} "
            "(target: a handful to a few dozen at every level)"
        )


def _sentences_of(book: Path) -> list[str]:
    text = book.read_bytes().decode("cp1252", errors="replace").replace("\r\n", " ")
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) > 4]


def speed(embedder: OnnxMiniLM, size: int, repeat: int) -> None:
    rng = np.random.default_rng(11)
    sentences = novel_sentences()[:size]
    embedded = embedder.embed(sentences)
    with tempfile.TemporaryDirectory() as home:
        app = build_app(load_settings(home=home), embedder=embedder)
        fill(app, size, rng, sentences, embedded)
        with app.db.locked() as conn:
            ids = [row[0] for row in conn.execute("SELECT id FROM memories")]
        for query in QUERIES:
            app.memory.recall(query)
        began = time.perf_counter()
        found = app.regions.regions()
        first = time.perf_counter() - began
        began = time.perf_counter()
        again = app.regions.regions()
        cached = time.perf_counter() - began
        journey_ms, wander_ms, recall_ms = [], [], []
        for n in range(repeat):
            start, end = (ids[i] for i in rng.choice(len(ids), size=2, replace=False))
            journey_ms.append(_ms(partial(app.journeys.journey, start, end)))
            recall_ms.append(_ms(partial(app.memory.recall, QUERIES[n % len(QUERIES)])))
            wander_ms.append(_ms(partial(app.wanderer.wander, seed_id=start, random_seed=n)))
            recall_ms.append(_ms(partial(app.memory.recall, QUERIES[(n + 1) % len(QUERIES)])))
        app.close()
    recall = statistics.median(recall_ms)
    for name, times in (("journey", journey_ms), ("wander", wander_ms)):
        p50 = statistics.median(times)
        print(
            f"{size} memories: {name} (5 steps) p50 {p50:.1f} ms, recall p50 {recall:.1f} ms, "
            f"ratio {p50 / recall:.2f} (target <= 2)"
        )
    print(
        f"{size} memories: regions {first:.2f} s (target <= 3 s), then {cached * 1000:.1f} ms "
        f"from cache ({again.cached}); {len(found.clusters)} regions, "
        f"{found.outliers.count} outliers, silhouette {found.clustering_quality}"
    )


def visualize_cold(embedder: OnnxMiniLM, size: int = 500, runs: int = 3) -> None:
    sentences = novel_sentences()[::7][:size]
    with tempfile.TemporaryDirectory() as home:
        app = build_app(load_settings(home=home), embedder=embedder)
        for start in range(0, size, 100):
            app.memory.remember_batch(
                [MemoryDraft(content=s) for s in sentences[start : start + 100]]
            )
        app.close()
        command = [sys.executable, "-m", "loci", "visualize", "--format", "svg", "--max", str(size)]
        environment = {**os.environ, "LOCI_HOME": home}
        seconds = []
        for _ in range(runs):
            began = time.perf_counter()
            output = ["-o", str(Path(home) / "map.svg")]
            subprocess.run([*command, *output], env=environment, check=True, capture_output=True)
            seconds.append(time.perf_counter() - began)
    print(
        f"visualize {size} memories in a fresh process: median {statistics.median(seconds):.2f} s "
        f"of {runs} (target <= 1.5 s; public implementation 4.3 s)"
    )


def quality(embedder: OnnxMiniLM) -> None:
    texts, groups = corpus()
    vectors = embedder.embed(texts)
    truth = np.array(groups)
    began = time.perf_counter()
    ours = cluster(vectors, min_cluster_size=3)
    seconds = time.perf_counter() - began
    k = len(set(groups))
    kmeans = [
        adjusted_rand_score(truth, KMeans(k, n_init=10, random_state=seed).fit_predict(vectors))
        for seed in range(3)
    ]
    ari = adjusted_rand_score(truth, ours.labels)
    print(
        f"regions on {len(texts)} docstrings of {k} modules: ARI {ari:.3f} "
        f"({ours.count} regions, {int(np.sum(ours.labels < 0))} outliers, {seconds:.2f} s) "
        f"vs k-means with the true k {statistics.mean(kmeans):.3f} (3 seeds: "
        f"{', '.join(f'{a:.3f}' for a in kmeans)}); silhouette {silhouette(vectors, ours):.3f}"
    )
    sample = vectors[::2][:500]
    began = time.perf_counter()
    layout = project(sample)
    seconds = time.perf_counter() - began
    ours_tw = trustworthiness(sample, layout, n_neighbors=10, metric="cosine")
    line = f"visualize layout of 500: trustworthiness {ours_tw:.4f} ({seconds:.2f} s)"
    try:
        import umap  # type: ignore[import-not-found]
    except ImportError:
        line += "; UMAP not installed (measured in a lab venv on these memories: 0.9464)"
    else:
        began = time.perf_counter()
        reference = umap.UMAP(n_neighbors=15, random_state=0, metric="cosine").fit_transform(sample)
        umap_tw = trustworthiness(sample, reference, n_neighbors=10, metric="cosine")
        took = time.perf_counter() - began
        line += (
            f"; UMAP {umap_tw:.4f} ({took:.1f} s), gap {umap_tw - ours_tw:+.4f} (target <= 0.02)"
        )
    print(line)


def _ms(work: object) -> float:
    began = time.perf_counter()
    work()  # type: ignore[operator]
    return (time.perf_counter() - began) * 1000


if __name__ == "__main__":
    main()

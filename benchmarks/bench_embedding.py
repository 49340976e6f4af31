"""The embedding model alone: texts per second (batches of 64, as ingest embeds them), one
query's latency, and mean cosine against the sentence-transformers reference vectors.

    python benchmarks/bench_embedding.py [--compare OTHER.onnx] [--rounds 3]

With `--compare`, another ONNX file of all-MiniLM-L6-v2 (an fp32 one is made by
`benchmarks/lab/make_fp32_minilm.py`) is measured in the same process, round by round beside
the shipped int8 file, and the ratios are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

from loci.engine.embedding.onnx_minilm import OnnxMiniLM

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "tests" / "fixtures" / "reference_vectors.json"
LOCOMO = REPO.parent / "shared" / "eval" / "locomo" / "locomo_dev.json"
NOVEL = REPO.parent / "shared" / "eval" / "novels" / "pride-and-prejudice.txt"


def texts() -> list[str]:
    """500 novel sentences and 500 chat turns (real lengths); a fallback without ../shared."""
    import re

    if not (NOVEL.exists() and LOCOMO.exists()):
        return [f"Sentence {n} about gardens, rivers and the people nearby." for n in range(1000)]
    prose = NOVEL.read_text(encoding="cp1252", errors="replace")
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", prose) if 20 < len(s.strip()) < 600]
    turns = [
        f"{turn['speaker']}: {turn['text']}"
        for conversation in json.loads(LOCOMO.read_text(encoding="utf-8"))
        for key, session in conversation["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]
    return sentences[:1500:3] + turns[:500]


def measure(model: OnnxMiniLM, corpus: list[str], queries: list[str]) -> tuple[float, float]:
    """(texts per second over the corpus, median milliseconds of one query)."""
    started = time.perf_counter()
    model.embed(corpus)
    rate = len(corpus) / (time.perf_counter() - started)
    latencies = []
    for query in queries:
        started = time.perf_counter()
        model.embed([query])
        latencies.append((time.perf_counter() - started) * 1000)
    return rate, statistics.median(latencies)


def cosine_to_reference(model: OnnxMiniLM) -> float:
    items = json.loads(REFERENCE.read_text(encoding="utf-8"))["items"]
    got = model.embed([item["text"] for item in items])
    want = np.array([item["vector"] for item in items], dtype=np.float32)
    want /= np.linalg.norm(want, axis=1, keepdims=True)
    return float((got * want).sum(axis=1).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--compare", type=Path, help="another ONNX file of the same model")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    corpus = texts()
    queries = corpus[::10][:100]
    models = {"int8 (shipped)": OnnxMiniLM()}
    if args.compare:
        models[args.compare.name] = OnnxMiniLM(model_file=args.compare)
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in models}
    for model in models.values():
        model.embed(corpus[:128])  # load and warm up
    for _ in range(args.rounds):  # alternate, so that both meet the machine's same moments
        for name, model in models.items():
            figures[name].append(measure(model, corpus, queries))
    for name, model in models.items():
        rate = statistics.median(r for r, _ in figures[name])
        latency = statistics.median(q for _, q in figures[name])
        print(
            f"{name}: {rate:.0f} texts/s (batches of 64, {len(corpus)} texts), one query "
            f"p50 {latency:.2f} ms, mean cosine to the reference {cosine_to_reference(model):.5f}"
        )
    if args.compare:
        base, other = (figures[name] for name in models)
        speed = statistics.median(o[0] / b[0] for b, o in zip(base, other, strict=True))
        query = statistics.median(o[1] / b[1] for b, o in zip(base, other, strict=True))
        print(f"{args.compare.name} / int8: throughput x{speed:.2f}, query latency x{query:.2f}")


if __name__ == "__main__":
    main()

"""The lifecycle tools (issue 34): consolidate and extract, speed and quality.

- `consolidate` over a store of 10,000 distinct memories (novel sentences, standard-library
  docstrings, LoCoMo observations) of which 2% have a planted near-duplicate (target <= 5 s),
  and on 800 distinct LoCoMo observations with 160 planted near-duplicates (40 each:
  case, punctuation, one word changed, sentences reordered; `near_duplicates.py`) at the
  default threshold: precision and recall of the duplicate pairs (targets 0.95 and 0.90), over
  three seeds; a group that would chain (two members below the threshold) is counted;
- `extract` on the 5 LoCoMo dev conversations, each session as one text into a namespace of
  its own, against the bare cost in the same process of segmenting the same texts and
  embedding what extract stored (target <= 1.5x). Its quality is `loci eval extract`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench_memory import novel_sentences
from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.evaluation.extract_quality import load_sessions
from loci.settings import load_settings
from loci.toolsets.memory.lifecycle.duplicates import sentences
from loci.toolsets.memory.models import MemoryDraft
from near_duplicates import KINDS, observations, planted, variant
from stdlib_corpus import corpus

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "eval" / "locomo" / "locomo_dev.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    args = parser.parse_args()
    embedder = OnnxMiniLM()
    embedder.load()
    consolidate_speed(embedder, args.size)
    if not LOCOMO.exists():
        print(f"{LOCOMO} is missing: consolidate quality and extract speed not measured")
        return
    consolidate_quality(embedder)
    extract_speed(embedder)


def consolidate_speed(embedder: OnnxMiniLM, size: int, share: float = 0.02) -> None:
    prose = novel_sentences()
    extra = observations(LOCOMO) if LOCOMO.exists() else []
    texts = list(dict.fromkeys(prose + corpus()[0] + extra))[:size]
    size = len(texts)
    rng = random.Random(3)
    planted_rows = rng.sample(range(size), int(size * share))
    for number, row in enumerate(planted_rows):
        texts[row] = variant(texts[(row + 1) % size], KINDS[number % 3], rng, prose)
    with tempfile.TemporaryDirectory() as home:
        app = build_app(load_settings(home=home), embedder=embedder)
        for start in range(0, size, 1000):
            app.memory.remember_all([MemoryDraft(content=t) for t in texts[start : start + 1000]])
        app.memory.recall("warm the index")
        began = time.perf_counter()
        preview = app.consolidation.consolidate(dry_run=True)
        looking = time.perf_counter() - began
        began = time.perf_counter()
        done = app.consolidation.consolidate()
        seconds = time.perf_counter() - began
        app.close()
    print(
        f"consolidate over {size} memories ({len(planted_rows)} planted near-duplicates): "
        f"{seconds:.2f} s (target <= 5 s), the dry run {looking:.2f} s; {done.groups_found} "
        f"groups ({preview.groups_found} previewed), {done.memories_after} memories after"
    )


def consolidate_quality(embedder: OnnxMiniLM) -> None:
    figures = []
    for seed in range(3):
        corpus = planted(LOCOMO, seed=seed)
        with tempfile.TemporaryDirectory() as home:
            app = build_app(load_settings(home=home), embedder=embedder)
            ids: list[str] = []
            for start in range(0, len(corpus.texts), 100):
                batch = corpus.texts[start : start + 100]
                ids += app.memory.remember_batch([MemoryDraft(content=t) for t in batch]).ids
            done = app.consolidation.consolidate(dry_run=True)
            app.close()
        gold = {frozenset((ids[a], ids[b])) for a, b, _ in corpus.pairs}
        found = set()
        chained = 0
        for group in done.consolidated:
            members = [group.kept.id, *(m.id for m in group.merged_from)]
            found |= {frozenset((a, b)) for i, a in enumerate(members) for b in members[i + 1 :]}
            chained += group.similarity < 0.9
        hits = len(found & gold)
        figures.append((hits / max(len(found), 1), hits / len(gold), chained))
        print(
            f"consolidate, seed {seed}: {len(corpus.texts)} memories, {len(gold)} planted pairs: "
            f"precision {figures[-1][0]:.3f}, recall {figures[-1][1]:.3f}, chained groups {chained}"
        )
    precision = statistics.mean(f[0] for f in figures)
    recall = statistics.mean(f[1] for f in figures)
    print(
        f"consolidate at 0.9: precision {precision:.3f} (target >= 0.95), recall {recall:.3f} (>= 0.90)"
    )


def extract_speed(embedder: OnnxMiniLM) -> None:
    texts = [
        "\n".join(session.lines) for _, sessions in load_sessions(LOCOMO) for session in sessions
    ]
    with tempfile.TemporaryDirectory() as home:
        app = build_app(load_settings(home=home), embedder=embedder)
        app.extraction.extract(texts[0], "warm")
        began = time.perf_counter()
        stored = []
        for number, text in enumerate(texts):
            found = app.extraction.extract(text, f"s{number}")
            stored += [item.content for item in found.extracted]
        ours = time.perf_counter() - began
        app.close()
    began = time.perf_counter()
    for text in texts:
        for line in text.splitlines():
            sentences(line)
    for start in range(0, len(stored), 64):
        embedder.embed(stored[start : start + 64])
    bare = time.perf_counter() - began
    print(
        f"extract of {len(texts)} sessions ({len(stored)} memories stored): {ours:.2f} s, bare "
        f"segmenting + embedding what it stored {bare:.2f} s, ratio {ours / bare:.2f} (target <= 1.5)"
    )


if __name__ == "__main__":
    main()

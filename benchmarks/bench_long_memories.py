"""Planted facts at the end of long memories: is every word of a memory searchable?

Each novel of `../shared/eval/story/` is cut into passages of about 1,600 characters (whole
sentences); each needle's fact is appended to one passage, evenly spaced, and every passage is
stored as one memory. Each needle's question is then asked through recall, as the default
ranking, keyword only and vector only, and the memory holding the fact is looked for among the
first 5 results. MiniLM reads the first 256 word pieces of a text (about 1,000 characters), so
without passages a fact at the end of a memory is invisible to the vector search.

    python benchmarks/bench_long_memories.py [--chars 1600] [--k 5]
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path

from loci.app import build_app
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft

STORY = Path(__file__).resolve().parents[2] / "shared" / "eval" / "story"
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
MODES = {"default": None, "keyword": 0.0, "vector": 1.0}


def passages(text: str, chars: int) -> list[str]:
    """Whole sentences gathered into passages of about `chars` characters."""
    found: list[str] = []
    current = ""
    for sentence in SENTENCE_END.split(" ".join(text.split())):
        if current and len(current) + len(sentence) > chars:
            found.append(current)
            current = ""
        current = f"{current} {sentence}".strip()
    if current:
        found.append(current)
    return found


def planted(spec: dict, chars: int) -> tuple[list[str], list[tuple[str, int]]]:
    """The passages of a novel with each needle's fact appended to one of them, and each
    question with the passage that answers it."""
    novel = (STORY / spec["novel"]).resolve().read_bytes().decode("cp1252", errors="replace")
    texts = passages(novel, chars)
    step = len(texts) // (len(spec["needles"]) + 1)
    questions = []
    for n, needle in enumerate(spec["needles"], start=1):
        at = n * step
        texts[at] = f"{texts[at]} {needle['fact']}"
        questions.append((needle["question"], at))
    return texts, questions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chars", type=int, default=1600)
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    if not STORY.exists():
        print(f"skipped: {STORY} is missing")
        return
    found = dict.fromkeys(MODES, 0)
    asked = 0
    started = time.perf_counter()
    for spec_file in sorted(STORY.glob("*.json")):
        spec = json.loads(spec_file.read_text(encoding="utf-8"))
        texts, questions = planted(spec, args.chars)
        with tempfile.TemporaryDirectory() as home:
            app = build_app(load_settings(home=Path(home)))
            ids = app.memory.remember_all([MemoryDraft(text) for text in texts])
            for question, at in questions:
                asked += 1
                for mode, alpha in MODES.items():
                    hits = app.memory.recall(question, limit=args.k, hybrid_alpha=alpha)
                    found[mode] += ids[at] in {hit.id for hit in hits.memories}
            app.close()
    figures = ", ".join(f"{mode} {found[mode]}/{asked}" for mode in MODES)
    print(
        f"planted facts at the end of ~{args.chars}-character memories, in the top {args.k}: "
        f"{figures} ({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()

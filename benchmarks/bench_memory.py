"""Latency, throughput and memory of the memory toolset, as ratios to the bare model."""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.engine.search.query_words import vector_query
from loci.evaluation import locomo
from loci.settings import Settings, load_settings
from loci.storage.indexes.facets.mirror import MemoryFacets
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.transfer import ImportOptions

QUERIES = [
    "what editor does the user prefer?",
    "when do deployments happen",
    "which database runs in staging",
    "what did Alice say about the trip to Lisbon?",
    "favourite food of the team lead",
]
NOVELS = Path(__file__).resolve().parents[2] / "shared" / "eval" / "novels"
LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "eval" / "locomo" / "locomo_dev.json"
WORDS = [
    "garden",
    "river",
    "mountain",
    "deploy",
    "database",
    "editor",
    "coffee",
    "travel",
    "project",
    "meeting",
    "budget",
]
#: The longest sentence (in words) the fill joins to another.
FILL_WORDS = 16
MINIMAL_SERVER = (
    "from mcp.server.mcpserver import MCPServer\n"
    "server = MCPServer('minimal')\n"
    "@server.tool()\ndef ping() -> str:\n    return 'pong'\n"
    "server.run('stdio')\n"
)


def p(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def cold_start(runs: int) -> None:
    import anyio

    from mcp import Client, StdioServerParameters

    async def once(params: StdioServerParameters) -> float:
        start = time.perf_counter()
        async with Client(params) as client:
            await client.list_tools()
            return (time.perf_counter() - start) * 1000

    def loci_in(home: str) -> StdioServerParameters:
        env = {**os.environ, "LOCI_HOME": home}
        return StdioServerParameters(command=sys.executable, args=["-m", "loci", "serve"], env=env)

    with tempfile.TemporaryDirectory() as home:
        script = Path(home) / "minimal.py"
        script.write_text(MINIMAL_SERVER, encoding="utf-8")
        minimal = StdioServerParameters(command=sys.executable, args=[str(script)], env=os.environ)
        restart = loci_in(home)
        anyio.run(once, restart)  # the first start saves the tool listing the restarts read
        base, ours, first = [], [], []
        for run in range(runs):  # interleaved, so drift hits both alike
            base.append(anyio.run(once, minimal))
            ours.append(anyio.run(once, restart))
            fresh = Path(home) / f"fresh-{run}"
            first.append(anyio.run(once, loci_in(str(fresh))))
    b, o, f = statistics.median(base), statistics.median(ours), statistics.median(first)
    print(
        f"cold start tools/list: minimal server {b:.0f} ms, loci {o:.0f} ms, "
        f"ratio {o / b:.3f} (target <= 1.15); first start in a new data folder (builds and "
        f"saves the tool listing) {f:.0f} ms, ratio {f / b:.3f}"
    )


def novel_sentences() -> list[str]:
    """Real prose (public-domain novels), so keyword matches are as selective as in real notes."""
    sentences = []
    for path in sorted(NOVELS.glob("*.txt")):
        text = path.read_bytes().decode("cp1252", errors="replace").replace("\r\n", " ")
        sentences += [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) > 4]
    return sentences


def fill(app, size: int, sentences: list[str], embedded: np.ndarray) -> None:
    """Grow the store to `size` memories, each two short sentences of a novel (21 words at
    the median, as a chat turn or a note): the n-th joins short sentence i = n mod N with the
    one d = 1 + n // N after it, so no two memories have the same text.

    Its vector is the normalised mean of the two sentences' embeddings (cosine 0.94 to the
    embedding of the joined text, median of 300 pairs), so 1M memories cost seconds of
    arithmetic, not the hours embedding 1M texts would take. An earlier fill repeated each
    sentence with noise on its vector; those tight clusters of near-copies made the HNSW
    search cheap and left islands in its graph that no `ef_search` reached, a shape real
    stores do not have.
    """
    short = [i for i, sentence in enumerate(sentences) if len(sentence.split()) <= FILL_WORDS]
    texts, vectors_of = [sentences[i] for i in short], embedded[short]
    done = app.catalog.stats().total_memories
    batch = 5000
    count = len(texts)
    while done < size:
        n = np.arange(done, min(done + batch, size))
        first = n % count
        second = (first + 1 + n // count) % count
        vectors = vectors_of[first] + vectors_of[second]
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        stamp = "2026-01-01T00:00:00.000000Z"
        memories = [
            {
                "id": str(uuid.uuid4()),
                "content": f"{texts[i]} {texts[j]}",
                "namespace": "bench",
                # Varied fields for the filtered recalls; ranking never reads them.
                "tags": [f"t{number % 10}"],
                "importance": number % 10 / 10,
                "source": ("manual", "import")[number % 2],
                "metadata": {"project": f"p{number % 4}"},
                "created_at": stamp,
                "updated_at": stamp,
                "last_accessed": stamp,
                "access_count": 0,
                "vector": vector.tolist(),
            }
            for number, i, j, vector in zip(
                n.tolist(), first.tolist(), second.tolist(), vectors, strict=True
            )
        ]
        data = {"embedding_model": "all-MiniLM-L6-v2", "memories": memories}
        app.transfer.import_data(
            data, ImportOptions(skip_duplicates=False, recompute_vectors=False)
        )
        done += len(n)


def shortlist_agreement(app, embedder: OnnxMiniLM, k: int) -> str:
    """Share of the exact top k that the (possibly shortlisted) index search returns (recall
    asks the index for its top 50 candidates when 10 results are wanted)."""
    index = app.engine.indexes.vectors
    queries = embedder.embed(QUERIES + [f"what happened with {w}" for w in WORDS])
    overlap = [
        len({h.key for h in index.search(q, k)} & {h.key for h in index.exact_search(q, k)}) / k
        for q in queries
    ]
    return f"{np.mean(overlap):.3f}"


def timed_recall(recall, inner: list[float]) -> float:
    """One recall's wall time (ms); the time it spent embedding its query goes to `inner`."""
    start = time.perf_counter()
    result = recall()
    elapsed = (time.perf_counter() - start) * 1000
    inner.append(result.query_embedding_time_ms)
    return elapsed


def own_share(ours: list[float], inner: list[float], bare: list[float]) -> str:
    """loci's own time, with the two parts it comes from: the query's embedding as timed inside
    recall (slower than the bare one: the database half of the search runs beside it, on the
    same two cores) and the work after the embedding."""
    after = [total - embedding for total, embedding in zip(ours, inner, strict=True)]
    return (
        f"loci's own {p(ours, 50) - p(bare, 50):.2f} ms: embedding inside recall p50 "
        f"{p(inner, 50):.2f} ms, work after it p50 {p(after, 50):.2f} ms"
    )


def recall_figures(app, embedder: OnnxMiniLM, size: int, repeat: int) -> None:
    app.memory.warm_up()
    bare, ours, inner = [], [], []
    for _ in range(repeat):
        for query in QUERIES:  # interleaved per query
            bare += timed(lambda q=query: embedder.embed([q]), 1)
            ours.append(timed_recall(lambda q=query: app.memory.recall(q, limit=10), inner))
            # Recall writes access statistics behind its answer, in the worker thread: let that
            # finish (untimed) so that loci's leftover work never slows the bare model's turn.
            app.db.flush_behind()
    ratio = p(ours, 50) / p(bare, 50)
    print(
        f"recall @ {size:>6}: p50 {p(ours, 50):.2f} ms, p95 {p(ours, 95):.2f} ms; "
        f"bare embedding p50 {p(bare, 50):.2f} ms; ratio {ratio:.2f} "
        f"({own_share(ours, inner, bare)}); "
        "vector agreement with exact search: top 10 "
        f"{shortlist_agreement(app, embedder, 10)}, top 50 {shortlist_agreement(app, embedder, 50)}"
    )


#: Filters a user might give recall, with the share of the bench store each admits.
FILTERS = {
    "tag (10%)": {"tags": {"contains": "t3"}},
    "importance >= 0.8 (20%)": {"importance": {"gte": 0.8}},
    "tag or source (55%)": {"or": [{"tags": "t1"}, {"source": "import"}]},
    "metadata.project (25%)": {"metadata.project": "p2"},
}


def filtered_recall_figures(app, embedder: OnnxMiniLM, size: int, repeat: int) -> None:
    """Recall with filters on fields the facets mirror holds, against the bare embedding. The
    first filtered recall of a process also loads that mirror, and the first on a metadata key
    reads that key's values: both are timed on their own, on a mirror of the same store."""
    parts = []
    for name, spec in FILTERS.items():
        app.memory.recall(QUERIES[0], limit=10, filters=spec)  # loads what the filter reads
        app.db.flush_behind()
        bare, ours, inner = [], [], []
        for _ in range(repeat):
            for query in QUERIES:
                bare += timed(lambda q=query: embedder.embed([q]), 1)
                recall = lambda q=query, f=spec: app.memory.recall(q, 10, filters=f)  # noqa: E731
                ours.append(timed_recall(recall, inner))
                app.db.flush_behind()
        parts.append(
            f"{name} p50 {p(ours, 50):.2f} ms, p95 {p(ours, 95):.2f} ms, ratio "
            f"{p(ours, 50) / p(bare, 50):.2f}"
        )
    mirrored = app.engine.indexes.facets is not None  # PostgreSQL filters in the database
    loading = "; " + mirror_load_figures(app) if mirrored else ""
    print(f"filtered recall @ {size:>6}: " + "; ".join(parts) + loading)


def long_query_figures(app, sentences: list[str]) -> None:
    """Recall of queries near the 64 KiB limit: prose, and text full of dates (each date is a
    period to look in). An agent may paste a whole log as its question."""
    months = ("March", "April", "May", "June", "July", "August")
    queries = {
        "prose": " ".join(sentences[:2000])[:60_000],
        "one date 5,000 times": ("in May 2023 " * 5000)[:60_000],
        "6,720 distinct dates": " ".join(
            f"on {d} {m} {y}" for y in range(1990, 2030) for d in range(1, 29) for m in months
        )[:60_000],
    }
    parts = []
    for name, query in queries.items():
        times = timed(lambda q=query: app.memory.recall(q, limit=10), 3)
        app.db.flush_behind()
        parts.append(f"{name} p50 {statistics.median(times):.0f} ms")
    size = app.catalog.stats().total_memories
    print(f"recall of a 60 KB query @ {size:>6}: " + "; ".join(parts))


def mirror_load_figures(app) -> str:
    """What a process's first filtered recall adds: loading the filter fields' mirror, and
    reading a metadata key's values (timed on a fresh mirror of the same store)."""
    facets = MemoryFacets()
    with app.db.snapshot() as conn:
        started = time.perf_counter()
        facets.read(conn)
        loaded = time.perf_counter()
        facets.hold_keys(conn, {"metadata.project"})
        held = time.perf_counter()
    return (
        f"the first filtered recall loads the filter fields' mirror: {(loaded - started) * 1000:.0f}"
        f" ms, and the first on metadata.project reads its values: {(held - loaded) * 1000:.0f} ms"
    )


def conversation_figures(embedder: OnnxMiniLM, repeat: int) -> None:
    """Recall in a store of chat turns (the LoCoMo dev conversations), asked their questions."""
    if not LOCOMO.exists():
        print(f"conversation recall: skipped, {LOCOMO} is missing")
        return
    conversations = locomo.load(LOCOMO)
    questions = [q.text for c in conversations for q in c.questions][:150]
    with tempfile.TemporaryDirectory() as home:
        app = build_app(load_settings(home=home), embedder=embedder)
        for conversation in conversations:
            app.conversations.remember_conversation(
                conversation.messages, "chat", conversation.sample_id
            )
        app.memory.warm_up()
        # Recall embeds the question without the speakers' names: time that text bare too.
        speakers = app.engine.actors(frozenset(["chat"]))
        embedded = {q: vector_query(q, speakers) for q in questions}
        bare, bare_embedded, ours, inner = [], [], [], []
        for _ in range(repeat):
            for question in questions:
                bare += timed(lambda q=question: embedder.embed([q]), 1)
                bare_embedded += timed(lambda q=embedded[question]: embedder.embed([q]), 1)
                ours.append(
                    timed_recall(lambda q=question: app.memory.recall(q, 10, "chat"), inner)
                )
                app.db.flush_behind()
        turns = app.catalog.stats().total_memories
        app.close()
    print(
        f"conversation recall ({turns} LoCoMo turns, {len(questions)} questions): "
        f"p50 {p(ours, 50):.2f} ms, p95 {p(ours, 95):.2f} ms; bare embedding p50 "
        f"{p(bare, 50):.2f} ms; ratio {p(ours, 50) / p(bare, 50):.2f} "
        f"({own_share(ours, inner, bare)}); bare embedding of the text recall embeds "
        f"(speaker names left out) p50 {p(bare_embedded, 50):.2f} ms, ratio to it "
        f"{p(ours, 50) / p(bare_embedded, 50):.2f}"
    )


def import_figures(embedder: OnnxMiniLM, database: str | None = None) -> None:
    """Storing many memories in one call: a chat import (`remember_conversation`) and
    `import_memories` with vectors recomputed, against embedding the same texts in one call
    (timed before and after them, and averaged: the machine drifts). On PostgreSQL each store
    is a scratch schema of `database`, dropped afterwards."""
    if not LOCOMO.exists():
        print(f"import throughput: skipped, {LOCOMO} is missing")
        return
    conversations = locomo.load(LOCOMO)
    texts = [f"{m.speaker}: {m.text}" for c in conversations for m in c.messages]
    with empty_store(database) as first, empty_store(database) as second:
        chat = build_app(first, embedder=embedder)
        bare = timed(lambda: embedder.embed(texts), 1)
        started = time.perf_counter()
        for conversation in conversations:
            chat.conversations.remember_conversation(
                conversation.messages, "chat", conversation.sample_id
            )
        chat_seconds = time.perf_counter() - started
        document = chat.transfer.export(limit=100_000).model_dump()
        chat.close()
        target = build_app(second, embedder=embedder)
        started = time.perf_counter()
        imported = target.transfer.import_data(document, ImportOptions()).imported
        import_seconds = time.perf_counter() - started
        target.close()
        bare += timed(lambda: embedder.embed(texts), 1)
    bare_rate = len(texts) / (statistics.mean(bare) / 1000)
    chat_rate, import_rate = len(texts) / chat_seconds, imported / import_seconds
    target_ratio = "0.8" if database else "0.85"
    print(
        f"import throughput ({len(texts)} LoCoMo turns): chat import {chat_rate:.0f}/s, "
        f"import_memories {import_rate:.0f}/s; bare embedding of the same texts in one call "
        f"{bare_rate:.0f}/s; ratios {chat_rate / bare_rate:.2f} and {import_rate / bare_rate:.2f} "
        f"(target >= {target_ratio})"
    )


@contextmanager
def empty_store(database: str | None) -> Iterator[Settings]:
    """Settings for an empty store: a new data folder, and on PostgreSQL a scratch schema."""
    with tempfile.TemporaryDirectory() as home:
        if database is None:
            yield load_settings(home=home)
            return
        from loci.storage.databases.postgres.scratch import scratch_schema

        with scratch_schema(database, "loci_bench") as url:
            yield load_settings(home=home, database_url=url)


def remember_figures(app, embedder: OnnxMiniLM, repeat: int) -> None:
    texts = [
        f"The user mentioned fact number {i} about {WORDS[i % len(WORDS)]} and lunch"
        for i in range(repeat)
    ]
    app.memory.remember(MemoryDraft("warm-up: the first write creates the namespace"))
    bare, ours = [], []
    # Interleaved, so drift hits both alike; the baseline embeds exactly the stored content.
    for t in texts:
        bare += timed(lambda t=t: embedder.embed([t]), 1)
        ours += timed(lambda t=t: app.memory.remember(MemoryDraft(t)), 1)
    print(
        f"remember: p50 {p(ours, 50):.2f} ms; bare embedding p50 {p(bare, 50):.2f} ms; "
        f"ratio {p(ours, 50) / p(bare, 50):.2f} (target <= 1.3)"
    )


FACT_PEOPLE = ["Dana", "Marco", "Priya", "Lena", "Omar", "Aiko", "Tom", "Zoe", "Ines", "Ben"]
FACT_CITIES = ["Berlin", "Lisbon", "Toronto", "Osaka", "Madrid", "Paris", "Oslo", "Rome"]


def fact_remember_figures(app, embedder: OnnxMiniLM, size: int, repeat: int) -> None:
    """`remember` as the MCP tool runs it (looking for the memories a new one contradicts)
    and without that look, on statements that make claims (a home, an employer), in a store
    of `size` memories; each against the bare embedding of its text."""
    texts = [
        f"{FACT_PEOPLE[i % 10]} {('lives in', 'works at')[i % 2]} "
        f"{FACT_CITIES[(i * 3) % 8]}{'' if i % 2 == 0 else ' Labs'} since week {i}."
        for i in range(repeat)
    ]
    bare, plain, facts = [], [], []
    # Each kind in its own loop, interleaved with the bare embedding: a write with the check
    # brings the vector index up to date with the writes before it, which a plain write
    # leaves to the next recall; mixed, one would pay for the other's.
    for t in texts:
        bare += timed(lambda t=t: embedder.embed([t]), 1)
        facts += timed(lambda t=t: app.facts.remember(MemoryDraft(t), "flag"), 1)
    app.memory.recall("warm-up after the writes", limit=1)
    for t in texts:
        bare += timed(lambda t=t: embedder.embed([t]), 1)
        plain += timed(lambda t=t: app.memory.remember(MemoryDraft(t, namespace="facts")), 1)
    b = p(bare, 50)
    print(
        f"remember a fact at {size}: p50 {p(facts, 50):.2f} ms with the conflict check, "
        f"{p(plain, 50):.2f} ms without; bare embedding {b:.2f} ms; ratios "
        f"{p(facts, 50) / b:.2f} (target <= 1.5) and {p(plain, 50) / b:.2f}"
    )


def batch_figures(app, embedder: OnnxMiniLM, rounds: int) -> None:
    texts = [
        f"Batch memory {i}: the team discussed {WORDS[i % 11]} and {WORDS[(i * 7) % 11]} at length"
        for i in range(100)
    ]
    bare, ours = [], []
    for _ in range(rounds):  # interleaved, so that the machine's drift falls on both alike
        bare += timed(lambda: embedder.embed(texts), 1)
        ours += timed(
            lambda: app.memory.remember_batch([MemoryDraft(t, namespace="batch") for t in texts]),
            1,
        )
    b, o = 100 / (statistics.median(bare) / 1000), 100 / (statistics.median(ours) / 1000)
    print(
        f"remember_batch: {o:.0f} memories/s; bare batch embedding {b:.0f}/s; "
        f"ratio {o / b:.2f} (target >= 0.85)"
    )


def peak_rss(home: str, database: str | None = None) -> None:
    # VmHWM, not ru_maxrss: Linux carries a parent's ru_maxrss into its forked children.
    overrides = f"home={home!r}" + (f", database_url={database!r}" if database else "")
    code = (
        "import re; from loci.app import build_app; from loci.settings import load_settings\n"
        f"app = build_app(load_settings({overrides}))\n"
        "for q in ['what editor', 'deploy day', 'database']: app.memory.recall(q, limit=10)\n"
        "app.memory.recall('deploy day', limit=10, filters={'tags': 't3'})\n"
        "peak = int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1))\n"
        "print(app.catalog.stats().total_memories, peak // 1024)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    target = "400 on PostgreSQL" if database else "600"
    print(f"peak RSS with {int(out[0])} memories: {out[1]} MB (target <= {target})")


def memory_figures(
    embedder: OnnxMiniLM,
    sentences: list[str],
    embedded: np.ndarray,
    args: argparse.Namespace,
    database: str | None,
) -> None:
    """Writes, then recall at each size, on one engine (`database`: a PostgreSQL URL, or None
    for the SQLite default). A database already holding the benchmark's memories is grown, not
    filled again, so that 1M memories need filling once."""
    engine = "PostgreSQL" if database else "SQLite"
    print(f"--- {engine}")
    with tempfile.TemporaryDirectory() as home:
        settings = load_settings(home=home, **({"database_url": database} if database else {}))
        app = build_app(settings, embedder=embedder)
        remember_figures(app, embedder, args.repeat)
        batch_figures(app, embedder, 5)
        for size in sorted(args.sizes):
            started = time.perf_counter()
            before = app.catalog.stats().total_memories
            fill(app, size, sentences, embedded)
            if size > before:
                rate = (size - before) / (time.perf_counter() - started)
                print(f"filled {engine} to {size} memories through import: {rate:.0f}/s")
            recall_figures(app, embedder, size, args.repeat // len(QUERIES) * 4)
            fact_remember_figures(app, embedder, size, args.repeat)
            filtered_recall_figures(app, embedder, size, args.repeat // len(QUERIES))
        long_query_figures(app, sentences)
        app.close()
        peak_rss(home, database)
    import_figures(embedder, database)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--cold-runs", type=int, default=15, help="0 leaves cold starts out")
    parser.add_argument(
        "--database",
        help="also run the memory figures on this PostgreSQL database (kept between runs: "
        "its memories are grown to each size, not filled again), after SQLite's",
    )
    parser.add_argument(
        "--only-database", action="store_true", help="with --database, leave SQLite's out"
    )
    args = parser.parse_args()
    embedder = OnnxMiniLM()
    embedder.load()
    embedder.embed(QUERIES)
    if args.cold_runs:
        cold_start(args.cold_runs)
    sentences = novel_sentences()
    started = time.perf_counter()
    embedded = embedder.embed(sentences)
    print(
        f"embedded {len(sentences)} novel sentences for the fill in {time.perf_counter() - started:.0f} s"
    )
    engines = [None, args.database] if args.database else [None]
    for database in engines[1:] if args.only_database else engines:
        memory_figures(embedder, sentences, embedded, args, database)
    conversation_figures(embedder, 3)
    print(json.dumps({"note": "ratios are loci / bare model in the same run"}))


if __name__ == "__main__":
    main()

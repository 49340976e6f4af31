"""pgvector's binary quantization against loci's HNSW search of full vectors, at scale.

    python benchmarks/bench_pg_binary.py --database URL [--candidates 200 400 800 1600]

On a store `bench_memory.py --database URL` filled (1,000,000 memories for issue 59), builds an
HNSW index of each vector's signs (`binary_quantize(embedding)::bit(384)`, Hamming distance) if
it is missing, then times, for the bench's queries and 100 LoCoMo questions, against the bare
embedding of the same query in the same process:

- loci's search today: the HNSW index of the full vectors at `hnsw.ef_search` 400;
- the binary index's nearest `candidates` (its `ef_search` the same), re-ranked by the full
  vectors in the same statement, for each number of candidates asked;

each with the share of the exact top 10 and top 50 it returns (the exact answer from a scan of
every vector). The binary index is dropped afterwards unless `--keep-index` is given.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np
import psycopg

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.storage.databases.postgres.vector_type import register_vector_type
from loci.storage.databases.vector_blob import VectorBlob

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "eval" / "locomo" / "locomo_dev.json"
QUERIES = [
    "what editor does the user prefer?",
    "when do deployments happen",
    "which database runs in staging",
    "what did Alice say about the trip to Lisbon?",
    "favourite food of the team lead",
    *(
        f"what happened with {w}"
        for w in (
            "garden", "river", "mountain", "deploy", "database", "editor", "coffee", "travel",
            "project", "meeting", "budget",
        )
    ),
]  # fmt: skip
DIMENSIONS = 384
INDEX = "memory_vectors_binary_hnsw"
FULL = f"(embedding::vector({DIMENSIONS}))"
BITS = f"(binary_quantize(embedding::vector({DIMENSIONS}))::bit({DIMENSIONS}))"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--candidates", type=int, nargs="+", default=[200, 400, 800, 1600])
    parser.add_argument("--questions", type=int, default=100, help="LoCoMo questions added")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep-index", action="store_true")
    args = parser.parse_args()
    model = OnnxMiniLM()
    model.load()
    texts = QUERIES + locomo_questions(args.questions)
    vectors = model.embed(texts)
    bare = [timed(lambda t=t: model.embed([t])) for t in texts for _ in range(args.repeat)]
    embedding_ms = statistics.median(bare)
    print(f"{len(texts)} queries; bare embedding p50 {embedding_ms:.2f} ms")
    with psycopg.connect(args.database, autocommit=True) as conn:
        register_vector_type(conn)
        conn.execute("SET max_parallel_workers_per_gather = 4")
        size = conn.execute("SELECT count(*) FROM memory_vectors").fetchone()[0]
        print(f"store: {size} vectors")
        exact = [exact_top(conn, v) for v in vectors]
        conn.execute("SET max_parallel_workers_per_gather = 0")
        conn.execute("SET hnsw.ef_search = 400")
        report("full vectors, ef_search 400", conn, vectors, exact, embedding_ms, args.repeat,
               lambda v: full_search(conn, v))  # fmt: skip
        build_binary_index(conn)
        for candidates in args.candidates:
            conn.execute(f"SET hnsw.ef_search = {min(candidates, 1000)}")
            report(f"binary, {candidates} candidates re-ranked", conn, vectors, exact,
                   embedding_ms, args.repeat,
                   lambda v, n=candidates: binary_search(conn, v, n))  # fmt: skip
        if not args.keep_index:
            conn.execute(f"DROP INDEX IF EXISTS {INDEX}")


def locomo_questions(count: int) -> list[str]:
    if not count or not LOCOMO.exists():
        return []
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    asked = [qa["question"] for sample in data for qa in sample["qa"] if qa.get("question")]
    return asked[:: max(1, len(asked) // count)][:count]


def blob(vector: np.ndarray) -> VectorBlob:
    return VectorBlob(np.ascontiguousarray(vector, dtype="<f4").tobytes())


def exact_top(conn: psycopg.Connection, vector: np.ndarray) -> list[int]:
    rows = conn.execute(
        "SELECT seq FROM memory_vectors ORDER BY embedding <#> %s, seq LIMIT 50", (blob(vector),)
    ).fetchall()
    return [row[0] for row in rows]


def full_search(conn: psycopg.Connection, vector: np.ndarray) -> list[int]:
    rows = conn.execute(
        f"SELECT seq FROM memory_vectors ORDER BY {FULL} <#> %s::vector({DIMENSIONS}) LIMIT 50",
        (blob(vector),),
    ).fetchall()
    return [row[0] for row in rows]


def binary_search(conn: psycopg.Connection, vector: np.ndarray, candidates: int) -> list[int]:
    rows = conn.execute(
        f"SELECT seq FROM (SELECT seq, embedding FROM memory_vectors "
        f"ORDER BY {BITS} <~> binary_quantize(%s::vector({DIMENSIONS})) LIMIT %s) AS c "
        f"ORDER BY embedding <#> %s LIMIT 50",
        (blob(vector), candidates, blob(vector)),
    ).fetchall()
    return [row[0] for row in rows]


def build_binary_index(conn: psycopg.Connection) -> None:
    if conn.execute("SELECT to_regclass(%s)", (INDEX,)).fetchone()[0] is not None:
        return
    conn.execute("SET maintenance_work_mem = '2GB'")
    conn.execute("SET max_parallel_maintenance_workers = 1")
    started = time.perf_counter()
    conn.execute(
        f"CREATE INDEX {INDEX} ON memory_vectors USING hnsw ({BITS} bit_hamming_ops) "
        "WITH (m = 16, ef_construction = 200)"
    )
    print(f"built the binary HNSW index in {time.perf_counter() - started:.0f} s")


def report(what, conn, vectors, exact, embedding_ms, repeat, search) -> None:
    search(vectors[0])  # warm
    times, top10, top50 = [], [], []
    for vector, expected in zip(vectors, exact, strict=True):
        for _ in range(repeat):
            started = time.perf_counter()
            found = search(vector)
            times.append((time.perf_counter() - started) * 1000)
        top10.append(len(set(found[:10]) & set(expected[:10])) / 10)
        top50.append(len(set(found) & set(expected)) / 50)
    scan = statistics.median(times)
    print(
        f"{what}: scan p50 {scan:.2f} ms ({scan / embedding_ms:.2f}x the embedding), "
        f"agreement with exact search top 10 {np.mean(top10):.3f}, top 50 {np.mean(top50):.3f}"
    )


def timed(work) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


if __name__ == "__main__":
    main()

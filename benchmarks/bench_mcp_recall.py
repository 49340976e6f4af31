"""Recall as a client sees it: `loci serve` over stdio MCP, against its two floors.

A store of N memories (novel sentences, embedded once) is served by `loci serve`; the Python
MCP SDK client calls `recall` (10 results) and times each call. The floors, timed in the same
run and interleaved with it: the bare embedding of the same query in this process, and the
round trip to a one-tool SDK server over stdio that returns loci's own 10-hit payload. The
ratio is loci's p50 over the sum of the two p50s (target <= 1.3).

    python benchmarks/bench_mcp_recall.py [--size 10000] [--repeat 20]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

from bench_memory import QUERIES, novel_sentences
from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft
from mcp import Client, StdioServerParameters

ECHO_SERVER = """
import json, sys
from mcp.server.mcpserver import MCPServer
from loci.toolsets.memory.models import RecallResult
payload = RecallResult.model_validate(json.loads(open(sys.argv[1]).read()))
server = MCPServer("echo")
@server.tool(structured_output=True)
def recall(query: str, limit: int = 10) -> RecallResult:
    return payload
server.run("stdio")
"""


def texts(size: int) -> list[str]:
    """`size` sentences of the dev novels (numbered past their count), or made ones."""
    found = novel_sentences()
    if not found:
        found = [f"Note {n} about the garden, the river and the budget." for n in range(size)]
    return [found[n % len(found)] + ("" if n < len(found) else f" ({n})") for n in range(size)]


def fill(home: Path, size: int, embedder: OnnxMiniLM) -> None:
    app = build_app(load_settings(home=home), embedder=embedder)
    try:
        app.memory.remember_all([MemoryDraft(text) for text in texts(size)])
    finally:
        app.close()


async def interleaved(
    loci: StdioServerParameters, echo: StdioServerParameters, embedder: OnnxMiniLM, repeat: int
) -> dict[str, list[float]]:
    """Times (ms) of loci's recall, the echo server's and the bare embedding, one after the
    other for each query, so that a slower moment of the machine weighs on all three; and the
    server's own embedding time of each query."""
    times: dict[str, list[float]] = {"loci": [], "echo": [], "bare": [], "inside": []}
    async with Client(loci) as ours, Client(echo) as floor:
        for query in QUERIES:  # warm: the model loads, the index is read
            await ours.call_tool("recall", {"query": query, "limit": 10})
            await floor.call_tool("recall", {"query": query, "limit": 10})
        for _ in range(repeat):
            for query in QUERIES:
                for name, client in (("loci", ours), ("echo", floor)):
                    start = time.perf_counter()
                    result = await client.call_tool("recall", {"query": query, "limit": 10})
                    times[name].append((time.perf_counter() - start) * 1000)
                    assert not result.is_error, result
                start = time.perf_counter()
                embedder.embed([query])
                times["bare"].append((time.perf_counter() - start) * 1000)
                if result.structured_content:
                    times["inside"].append(result.structured_content["query_embedding_time_ms"])
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    embedder = OnnxMiniLM()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        started = time.perf_counter()
        fill(home, args.size, embedder)
        print(f"stored {args.size} memories in {time.perf_counter() - started:.0f} s")
        env = {**os.environ, "LOCI_HOME": str(home)}
        loci = StdioServerParameters(command=sys.executable, args=["-m", "loci", "serve"], env=env)
        app = build_app(load_settings(home=home), embedder=embedder)
        payload = app.memory.recall(QUERIES[0], limit=10)
        app.close()
        (Path(folder) / "payload.json").write_text(payload.model_dump_json(), encoding="utf-8")
        (Path(folder) / "echo.py").write_text(ECHO_SERVER, encoding="utf-8")
        echo = StdioServerParameters(
            command=sys.executable,
            args=[str(Path(folder) / "echo.py"), str(Path(folder) / "payload.json")],
            env=os.environ,
        )
        times = anyio.run(interleaved, loci, echo, embedder, args.repeat)
    o, t, b = (statistics.median(times[name]) for name in ("loci", "echo", "bare"))
    print(
        f"recall over stdio MCP @ {args.size}: p50 {o:.2f} ms; bare embedding p50 {b:.2f} ms, "
        f"SDK round trip of the same payload p50 {t:.2f} ms; ratio {o / (b + t):.2f} "
        "(target <= 1.3)"
    )
    print(
        f"the query's embedding inside loci serve p50 {statistics.median(times['inside']):.2f} ms"
    )
    print(json.dumps({"note": "ratio = loci / (bare embedding + SDK round trip), same run"}))


if __name__ == "__main__":
    main()

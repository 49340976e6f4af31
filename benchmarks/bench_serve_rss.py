"""Memory held by a real `loci serve` after batch ingest through MCP, then after recalls.

    python benchmarks/bench_serve_rss.py [--size 100000] [--recalls 400]

The server is started as MCP clients start it (stdio); `remember_batch` stores LoCoMo turns and
novel sentences in batches of 100 (numbered past the first round, so each is distinct), then
`recall` asks LoCoMo questions. The server's resident memory (VmRSS) and its peak (VmHWM) are
read from /proc at each step; the target is at most 600 MB at 100k memories. Ingest speed is
printed beside the bare model's batch speed on the same texts, measured in this process.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import anyio

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from mcp import Client, StdioServerParameters

SHARED = Path(__file__).resolve().parents[2] / "shared" / "eval"
BATCH = 100
TARGET_MB = 600


def corpus() -> tuple[list[str], list[str]]:
    """(chat turns and novel sentences, LoCoMo questions)."""
    conversations = json.loads((SHARED / "locomo" / "locomo_dev.json").read_text("utf-8"))
    turns = [
        f"{turn['speaker']}: {turn['text']}"
        for conversation in conversations
        for key, session in conversation["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]
    questions = [qa["question"] for conversation in conversations for qa in conversation["qa"]]
    sentences: list[str] = []
    for path in sorted((SHARED / "novels").glob("*.txt")):
        text = path.read_bytes().decode("cp1252", errors="replace").replace("\r\n", " ")
        sentences += [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) > 4]
    return turns + sentences, questions


def text_number(texts: list[str], n: int) -> str:
    round_, index = divmod(n, len(texts))
    return texts[index] if round_ == 0 else f"{texts[index]} ({round_})"


def memory_of(pid: int) -> tuple[int, int]:
    """(resident MB, peak resident MB) of a process."""
    status = Path(f"/proc/{pid}/status").read_text()
    figure = {
        k: int(re.search(rf"{k}:\s+(\d+)", status).group(1)) // 1024 for k in ("VmRSS", "VmHWM")
    }  # type: ignore[union-attr]
    return figure["VmRSS"], figure["VmHWM"]


def server_pid(home: str) -> int:
    """The `loci serve` process whose data folder is `home`."""
    marker = f"LOCI_HOME={home}".encode()
    for entry in Path("/proc").iterdir():
        try:
            if (
                entry.name.isdigit()
                and marker in (entry / "environ").read_bytes().split(b"\0")
                and b"serve" in (entry / "cmdline").read_bytes()
            ):
                return int(entry.name)
        except OSError:
            continue
    raise SystemExit("the loci serve process was not found")


async def run(size: int, recalls: int) -> None:
    texts, questions = corpus()
    bare = OnnxMiniLM()
    sample = [text_number(texts, n) for n in range(0, size, max(1, size // 1000))]  # alike
    bare.embed(sample[:64])
    started = time.perf_counter()
    bare.embed(sample)
    bare_rate = len(sample) / (time.perf_counter() - started)
    with tempfile.TemporaryDirectory() as home:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "loci", "serve"],
            env={**os.environ, "LOCI_HOME": home},
        )
        async with Client(params, read_timeout_seconds=300) as client:
            pid = server_pid(home)
            print(f"started: {memory_of(pid)[0]} MB")
            started = time.perf_counter()
            for start in range(0, size, BATCH):
                items = [{"content": text_number(texts, n)} for n in range(start, start + BATCH)]
                result = await client.call_tool("remember_batch", {"memories": items})
                assert not result.is_error, result.content
                if (start + BATCH) % 10_000 == 0:
                    rss, peak = memory_of(pid)
                    rate = (start + BATCH) / (time.perf_counter() - started)
                    print(f"{start + BATCH} memories: {rss} MB (peak {peak} MB), {rate:.0f}/s")
            rate = size / (time.perf_counter() - started)
            rss, peak = memory_of(pid)
            print(
                f"after ingest of {size}: {rss} MB (peak {peak} MB; target <= {TARGET_MB}); "
                f"ingest {rate:.0f} memories/s through MCP, bare batch embedding "
                f"{bare_rate:.0f}/s, ratio {rate / bare_rate:.2f}"
            )
            for question in (questions * (recalls // len(questions) + 1))[:recalls]:
                result = await client.call_tool("recall", {"query": question, "limit": 10})
                assert not result.is_error, result.content
            rss, peak = memory_of(pid)
            print(f"after {recalls} recalls: {rss} MB (peak {peak} MB; target <= {TARGET_MB})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--recalls", type=int, default=400)
    args = parser.parse_args()
    anyio.run(run, args.size, args.recalls)


if __name__ == "__main__":
    main()

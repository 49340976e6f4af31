"""A server killed (SIGKILL) while it writes keyed memories: the client retries every write on
another server of the same store (as a client does whose answers were lost on the way), and
each memory is stored exactly once; an answered write's retry gives the same memory back."""

from __future__ import annotations

import json
import subprocess

import anyio
import pytest

from tests.e2e.conftest import INITIALIZE, Answers, answers, connected, server_params

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

ROUNDS = 3
WRITES_PER_ROUND = 40


def key_of(text: str) -> str:
    return text.replace(" ", "-")


def keyed_remember(request_id: int, text: str) -> bytes:
    call = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {
            "name": "remember",
            "arguments": {"content": text, "idempotency_key": key_of(text)},
        },
    }
    return json.dumps(call).encode("utf-8") + b"\n"


async def killed_mid_writes(home, texts: list[str], **env: str) -> Answers:
    """Send every write at once, kill the server as soon as the first is answered, and return
    the answers it wrote before it died (request id = index in `texts` + 2)."""
    params = server_params(home, **env)
    process = await anyio.open_process(
        [params.command, *params.args], env=params.env, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None
    await process.stdin.send(json.dumps(INITIALIZE).encode() + b"\n")
    await answers(process, {1})
    await process.stdin.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    await process.stdin.send(b"".join(keyed_remember(i + 2, t) for i, t in enumerate(texts)))
    answered = await answers(process, {2})
    process.kill()
    answered |= await answers(process, None)
    await process.wait()
    return answered


async def test_writes_retried_after_a_kill_are_stored_exactly_once(tmp_path, store_env):
    stored: list[str] = []
    async with connected(tmp_path, **store_env) as survivor:
        for round_number in range(ROUNDS):
            texts = [f"round {round_number} note {i}" for i in range(WRITES_PER_ROUND)]
            answered = await killed_mid_writes(tmp_path, texts, **store_env)
            # The first write was stored: the server was killed with writes in flight.
            assert not answered[2]["result"]["isError"], answered[2]
            for request_id, text in enumerate(texts, start=2):
                retried = await survivor.call_tool(
                    "remember", {"content": text, "idempotency_key": key_of(text)}
                )
                if retried.is_error:  # applied by the killed server, its answer lost
                    error = json.loads(retried.content[0].text)["error"]
                    assert error["type"] == "conflict" and error["details"]["applied"], error
                elif request_id in answered:
                    first = answered[request_id]["result"]["structuredContent"]
                    assert retried.structured_content["id"] == first["id"]
            stored += texts
        exported = await survivor.call_tool("export_memories", {"limit": 1000})
        memories = exported.structured_content["export"]["memories"]
        contents = sorted(m["content"] for m in memories)
        assert contents == sorted(stored)

"""Bytes no SDK client would send: escaped lone surrogates and invalid UTF-8 on stdin."""

from __future__ import annotations

import json
import subprocess

import anyio
import pytest

from tests.e2e.conftest import INITIALIZE, answers, server_params

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

INIT = INITIALIZE


def _call(request_id: int, name: str, arguments_json: str) -> bytes:
    params = f'{{"name":"{name}","arguments":{arguments_json}}}'
    line = f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call","params":{params}}}\n'
    return line.encode("utf-8")


async def test_invalid_text_is_refused_and_nothing_is_stored(tmp_path):
    """Every request gets an answer: one holding a lone surrogate or nested too deep for the
    SDK's JSON reader (both dropped without a word before) gets a JSON-RPC parse error with
    its id, one that is JSON but not JSON-RPC (a method that is not text, params that are
    not an object, JSON-RPC 1.0, a batch) an invalid-request error with its id, one with no
    id that can be written back an error with a null id, and invalid UTF-8 is read as
    U+FFFD; nothing invalid is stored, the server logs why, and it goes on."""
    params = server_params(tmp_path)
    async with await anyio.open_process(
        [params.command, *params.args], env=params.env, stderr=subprocess.PIPE
    ) as process:
        send = process.stdin.send
        await send(json.dumps(INIT).encode() + b"\n")
        await answers(process, {1})
        await send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        await send(_call(2, "remember", '{"content":"lone \\ud800 surrogate"}'))
        await send(_call(3, "nearby", '{"memory_id":"\\u0000\\u0001../etc"}'))
        await send(
            _call(4, "nearby", '{"memory_id":"00000000-0000-4000-8000-00000000000X"}').replace(
                b"X", b"\xff"
            )
        )
        deep = "[" * 300 + "]" * 300
        await send(_call(6, "remember", f'{{"content":"deep","metadata":{{"a":{deep}}}}}'))
        await send(b'{"jsonrpc":"2.0","id":"seven","params":{}}\n')
        await send(b'{"jsonrpc":"2.0","method":"notifications/x","params":{"a":"\\udfff"}}\n')
        await send(b'{"jsonrpc":"2.0","id":8,"method":5}\n')
        await send(b'{"jsonrpc":"2.0","id":9,"method":"ping","params":3}\n')
        await send(b'{"jsonrpc":"1.0","id":10,"method":"ping"}\n')
        await send(b'[{"jsonrpc":"2.0","id":11,"method":"ping"}]\n')
        await send(b'\n{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}\n')
        await send(_call(5, "stats", "{}"))
        answered = await answers(process, {2, 3, 4, 5, 6, "seven", 8, 9, 10, 11, None})
        for request_id in (3, 4):
            result = answered[request_id]["result"]
            assert result["isError"] is True
            assert json.loads(result["content"][0]["text"])["error"]["type"] == "invalid_input"
        assert answered[2]["error"]["code"] == -32700
        assert "surrogate" in answered[2]["error"]["message"]
        assert answered[6]["error"]["code"] == -32700
        assert "nests too deep" in answered[6]["error"]["message"]
        assert answered["seven"]["error"]["code"] == -32600
        for request_id in (8, 9, 10, 11):
            assert answered[request_id]["error"]["code"] == -32600, answered[request_id]
        assert "batch" in answered[11]["error"]["message"]
        assert answered[None]["error"]["code"] in (-32700, -32600)  # no id it can write back
        assert answered[5]["result"]["structuredContent"]["total_memories"] == 0
        await process.stdin.aclose()
        logged = b""
        with anyio.fail_after(60):
            async for chunk in process.stderr:
                logged += chunk
        assert logged.count(b"WARNING") >= 4, logged.decode(errors="replace")
        assert b"answered request 2 with error -32700" in logged
        assert b"answered request None with error" in logged


async def test_closing_while_the_model_loads_exits_cleanly(tmp_path):
    """A client that closes the server moments after listing the tools (a window closed at
    once) must not see it crash: exiting while ONNX Runtime loaded the model in the warm-up
    thread aborted the process ("terminate called without an active exception")."""
    params = server_params(tmp_path, LOCI_LOG_LEVEL="INFO")
    async with await anyio.open_process([params.command, *params.args], env=params.env) as process:
        await process.stdin.send(json.dumps(INIT).encode() + b"\n")
        await answers(process, {1})
        await process.stdin.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        await process.stdin.send(b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n')
        await process.stdin.send(_call(3, "stats", "{}"))
        await answers(process, {2, 3})
        logged = b""
        with anyio.fail_after(60):
            async for chunk in process.stderr:
                logged += chunk
                if b"starting the ONNX Runtime session" in logged:
                    break
        await process.stdin.aclose()
        with anyio.fail_after(60):
            async for chunk in process.stderr:
                logged += chunk
            code = await process.wait()
    assert code == 0 and b"terminate called" not in logged, logged.decode(errors="replace")

"""The HTTP guard, driven as ASGI: the token, the body's size and pace, requests in flight per
session and the time a request may take. The app behind it stands in for the MCP endpoint."""

from __future__ import annotations

import json

import anyio
import pytest

from loci.faces.http.bearer import BearerToken
from loci.faces.http.guard import Guard, Limits

pytestmark = pytest.mark.anyio
LIMITS = Limits(max_body_bytes=1000, client_concurrency=1, request_timeout=0.5, read_timeout=0.3)


class Recorder:
    """The app behind the guard: answers 200 with the body it read, after `delay` seconds."""

    def __init__(self, delay: float = 0.0, stream: bool = False) -> None:
        self.delay = delay
        self.stream = stream
        self.bodies: list[bytes] = []
        #: Set once a request reached the app (and, streaming, its stream began).
        self.working = anyio.Event()

    async def __call__(self, scope, receive, send) -> None:
        message = await receive()
        self.bodies.append(message.get("body", b""))
        kind = b"text/event-stream" if self.stream else b"application/json"
        if self.stream:
            await send(
                {"type": "http.response.start", "status": 200, "headers": [(b"content-type", kind)]}
            )
            await send({"type": "http.response.body", "body": b": ping\n\n", "more_body": True})
        self.working.set()
        await anyio.sleep(self.delay)
        if not self.stream:
            await send(
                {"type": "http.response.start", "status": 200, "headers": [(b"content-type", kind)]}
            )
        await send({"type": "http.response.body", "body": b"{}", "more_body": False})  # fmt: skip


def scope(
    method: str = "POST", headers: dict[str, str] | None = None, query: str = "", path: str = "/mcp"
) -> dict:
    fields = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    return {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": query.encode(),
        "headers": fields,
        "client": ("127.0.0.1", 50000),
    }


async def call(guard: Guard, request: dict, chunks: list[bytes], gap: float = 0.0) -> list[dict]:
    """Send `request` with its body in `chunks` (`gap` seconds apart); what came back."""
    sent: list[dict] = []
    pending = list(chunks)

    async def receive() -> dict:
        if not pending:
            await anyio.sleep_forever()
        await anyio.sleep(gap)
        chunk = pending.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(pending)}

    async def send(message: dict) -> None:
        sent.append(message)

    await guard(request, receive, send)
    return sent


def status(sent: list[dict]) -> int:
    return next(m["status"] for m in sent if m["type"] == "http.response.start")


def error(sent: list[dict]) -> dict:
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return json.loads(body)["error"]


@pytest.fixture
def token(tmp_path) -> BearerToken:
    return BearerToken(tmp_path / "home")


def authorized(token: BearerToken, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token.value()}", **headers}


def test_the_token_is_private_and_made_once(token):
    value = token.value()
    assert value.startswith("loci_") and len(value) > 40
    assert token.path.stat().st_mode & 0o777 == 0o600
    assert BearerToken(token.home).value() == value


def test_a_rotation_by_another_process_applies_at_once(token):
    old = token.value()
    new = BearerToken(token.home).rotate()
    assert not token.matches(old) and token.matches(new)


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({}, "missing"),
        ({"Authorization": "Bearer loci_wrong"}, "wrong"),
        ({"Authorization": "Basic x"}, "wrong"),
    ],
)
async def test_requests_without_the_token_are_refused_unread(token, headers, why):
    app = Recorder()
    sent = await call(Guard(app, token, LIMITS), scope(headers=headers), [b"{}"])
    assert status(sent) == 401 and why in error(sent)["message"]
    assert (b"www-authenticate", b'Bearer realm="loci"') in sent[0]["headers"]
    assert app.bodies == []


async def test_a_token_in_the_url_is_refused_even_with_the_header(token):
    app = Recorder()
    request = scope(headers=authorized(token), query=f"token={token.value()}")
    sent = await call(Guard(app, token, LIMITS), request, [b"{}"])
    assert status(sent) == 400 and error(sent)["data"]["type"] == "token_in_url"
    assert app.bodies == []


async def test_the_health_check_needs_no_token(token):
    app = Recorder()
    sent = await call(Guard(app, token, LIMITS), scope("GET", path="/healthz"), [b""])
    assert status(sent) == 200


async def test_an_oversized_body_is_refused_by_its_length_or_as_it_arrives(token):
    app = Recorder()
    guard = Guard(app, token, LIMITS)
    declared = scope(headers=authorized(token, **{"Content-Length": "5000"}))
    assert status(await call(guard, declared, [b"x" * 5000])) == 413
    streamed = await call(guard, scope(headers=authorized(token)), [b"x" * 600, b"x" * 600])
    assert status(streamed) == 413 and error(streamed)["data"]["type"] == "body_too_large"
    assert app.bodies == []


async def test_a_body_sent_too_slowly_is_refused(token):
    app = Recorder()
    with anyio.fail_after(5):
        sent = await call(
            Guard(app, token, LIMITS), scope(headers=authorized(token)), [b"{", b"}"], gap=0.2
        )
    assert status(sent) == 408 and app.bodies == []


async def test_the_body_reaches_the_app_whole(token):
    app = Recorder()
    sent = await call(
        Guard(app, token, LIMITS), scope(headers=authorized(token)), [b'{"a"', b":1}"]
    )
    assert status(sent) == 200 and app.bodies == [b'{"a":1}']


async def test_a_session_over_its_concurrency_is_refused_others_are_not(token):
    app = Recorder(delay=0.3)
    guard = Guard(app, token, LIMITS)
    results: dict[str, list[dict]] = {}

    async def run(name: str, session: str) -> None:
        headers = authorized(token, **{"Mcp-Session-Id": session})
        results[name] = await call(guard, scope(headers=headers), [b"{}"])

    with anyio.fail_after(5):
        async with anyio.create_task_group() as group:
            group.start_soon(run, "first", "s1")
            await app.working.wait()  # the first holds its session's slot
            group.start_soon(run, "second", "s1")
            group.start_soon(run, "other", "s2")
    assert status(results["first"]) == 200 and status(results["other"]) == 200
    assert status(results["second"]) == 429
    assert error(results["second"])["data"]["type"] == "too_many_requests"


async def test_an_answer_too_late_is_a_timeout_error(token):
    sent = await call(
        Guard(Recorder(delay=5), token, LIMITS), scope(headers=authorized(token)), [b'{"id": 7}']
    )
    assert status(sent) == 504 and error(sent)["data"]["type"] == "timeout"


async def test_an_event_stream_too_late_ends_with_the_requests_error(token):
    request = scope(headers=authorized(token))
    with anyio.fail_after(5):
        sent = await call(
            Guard(Recorder(delay=5, stream=True), token, LIMITS), request, [b'{"id": 7}']
        )
    assert status(sent) == 200
    last = sent[-1]
    assert last["more_body"] is False
    event = json.loads(last["body"].decode().split("data: ", 1)[1])
    assert event["id"] == 7 and event["error"]["data"]["type"] == "timeout"


async def test_event_streams_end_when_the_server_closes(token):
    app = Recorder(delay=60, stream=True)
    guard = Guard(app, token, LIMITS)

    with anyio.fail_after(5):
        async with anyio.create_task_group() as group:
            group.start_soon(call, guard, scope("GET", headers=authorized(token)), [b""])
            await app.working.wait()  # the stream is open
            guard.close_streams()


async def test_an_unreadable_token_file_lets_nobody_in_and_says_why(token):
    headers = authorized(token)
    token.path.write_text("damaged")
    app = Recorder()
    sent = await call(Guard(app, token, LIMITS), scope(headers=headers), [b"{}"])
    assert status(sent) == 503 and "loci token rotate" in error(sent)["message"]
    assert app.bodies == []


def test_a_token_file_opened_to_others_is_made_private_again(token, caplog):
    value = token.value()
    token.path.chmod(0o644)
    fresh = BearerToken(token.home)
    assert fresh.value() == value
    assert token.path.stat().st_mode & 0o777 == 0o600
    assert "private again" in caplog.text


async def test_an_answer_sent_whole_is_left_alone_past_the_deadline(token):
    class Lingering(Recorder):
        async def __call__(self, scope, receive, send) -> None:
            await Recorder.__call__(self, scope, receive, send)
            await anyio.sleep(5)  # work after the answer (the SDK's tasks may linger)

    with anyio.fail_after(5):
        sent = await call(
            Guard(Lingering(), token, LIMITS), scope(headers=authorized(token)), [b"{}"]
        )
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert status(sent) == 200

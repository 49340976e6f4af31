"""The web view's gate and forms through the real HTTP app (in process): the login and its
cookie, the page headers, the checks every form that changes something must pass, and what
a limited or revoked token reaches. The browser tests click through the same pages."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.http.app import build_http_app
from loci.faces.http.bearer import BearerToken
from loci.faces.http.guard import Guard
from loci.faces.web.sessions import cookie_name
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft

ORIGIN = "http://127.0.0.1:8765"
COOKIE = cookie_name(8765)  # the session cookie of a view reached on ORIGIN's port
HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>'


class Store:
    """A data folder with a few memories, served by the real HTTP app."""

    def __init__(self, home: Path, embedder: OnnxMiniLM) -> None:
        self.settings = load_settings(home=home)
        seeded = build_app(self.settings, embedder=embedder)
        remember = seeded.memory.remember
        self.plain = remember(MemoryDraft(content="The spare key is under the blue pot.")).id
        self.hostile = remember(MemoryDraft(content=HOSTILE, tags=["<b>tag</b>"])).id
        self.work = remember(
            MemoryDraft(content="Deploys happen on Tuesdays.", namespace="work")
        ).id
        self.read_only, _ = seeded.access.create("reader", read_only=True)
        self.work_only, _ = seeded.access.create("worker", namespaces=["work"])
        self.revocable, _ = seeded.access.create("leaver")
        self._seeded = seeded
        self.guard: Guard = build_http_app(self.settings, embedder)
        self.token = BearerToken(home).value()

    def client(self, token: str | None = None) -> TestClient:
        """A browser-like client; logged in with `token` when given."""
        client = TestClient(self.guard, base_url=ORIGIN, follow_redirects=False)
        if token is not None:
            answer = client.post("/ui/login", data={"token": token}, headers={"Origin": ORIGIN})
            assert answer.status_code == 303, answer.text
        return client

    def revoke(self, name: str) -> None:
        self._seeded.access.revoke(name)

    def content_of(self, memory_id: str) -> str:
        return self._seeded.memory.get(memory_id).content

    def contents(self, namespace: str) -> list[str]:
        """What a namespace holds, read from the database file."""
        with sqlite3.connect(self.settings.home / "loci.db") as conn:
            rows = conn.execute("SELECT content FROM memories WHERE namespace = ?", (namespace,))
            return [row[0] for row in rows]

    def close(self) -> None:
        self._seeded.close()


@pytest.fixture
def store(home: Path, embedder: OnnxMiniLM) -> Iterator[Store]:
    made = Store(home, embedder)
    yield made
    made.close()


def form_token(page: str) -> str:
    found = re.search(r'name="form_token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_pages_ask_for_the_token_first(store: Store) -> None:
    client = store.client()
    answer = client.get("/ui/")
    assert answer.status_code == 303 and answer.headers["location"] == "/ui/login"
    assert client.get("/ui/login").status_code == 200


def test_the_token_is_exchanged_for_a_strict_http_only_cookie(store: Store) -> None:
    client = store.client()
    answer = client.post("/ui/login", data={"token": store.token}, headers={"Origin": ORIGIN})
    assert answer.status_code == 303
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and store.token not in cookie
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/ui" in cookie
    page = client.get("/ui/")
    assert page.status_code == 200 and "The spare key is under the blue pot." in page.text


def test_a_wrong_token_is_refused(store: Store) -> None:
    answer = store.client().post(
        "/ui/login", data={"token": "loci_wrong"}, headers={"Origin": ORIGIN}
    )
    assert answer.status_code == 401 and COOKIE not in answer.headers.get("set-cookie", "")


def test_a_login_from_another_site_is_refused(store: Store) -> None:
    answer = store.client().post(
        "/ui/login", data={"token": store.token}, headers={"Origin": "http://evil.example"}
    )
    assert answer.status_code == 403 and "set-cookie" not in answer.headers


def test_a_ticket_opens_one_session_once(store: Store) -> None:
    assert store.guard.view_ticket is not None
    ticket = store.guard.view_ticket()
    first = store.client().get(f"/ui/login?ticket={ticket}")
    assert first.status_code == 303 and COOKIE in first.headers["set-cookie"]
    again = store.client().get(f"/ui/login?ticket={ticket}")
    assert again.status_code == 401 and "set-cookie" not in again.headers


def test_pages_carry_a_strict_content_security_policy(store: Store) -> None:
    answer = store.client(store.token).get("/ui/")
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy
    assert answer.headers["x-frame-options"] == "DENY"


def test_memory_text_is_shown_escaped_on_every_page(store: Store) -> None:
    client = store.client(store.token)
    for path in ("/ui/", f"/ui/m/{store.hostile}", f"/ui/m/{store.hostile}/forget"):
        page = client.get(path).text
        assert "<script>alert" not in page and "<img src=x" not in page, path
        assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page, path
    assert "&lt;b&gt;tag&lt;/b&gt;" in client.get("/ui/").text


def test_a_form_without_the_session_form_token_changes_nothing(store: Store) -> None:
    client = store.client(store.token)
    answer = client.post(
        f"/ui/m/{store.plain}", data={"content": "changed"}, headers={"Origin": ORIGIN}
    )
    assert answer.status_code == 403
    assert store.content_of(store.plain) == "The spare key is under the blue pot."


def test_a_form_posted_from_another_origin_changes_nothing(store: Store) -> None:
    client = store.client(store.token)
    token = form_token(client.get(f"/ui/m/{store.plain}").text)
    for headers in ({"Origin": "http://evil.example"}, {}, {"Sec-Fetch-Site": "cross-site"}):
        answer = client.post(
            f"/ui/m/{store.plain}/forget", data={"form_token": token}, headers=headers
        )
        assert answer.status_code == 403
    assert store.content_of(store.plain).startswith("The spare key")


def test_an_edit_through_the_form_is_saved(store: Store) -> None:
    client = store.client(store.token)
    page = client.get(f"/ui/m/{store.plain}").text
    read_at = re.search(r'name="read_at" value="([^"]+)"', page)
    assert read_at is not None
    answer = client.post(
        f"/ui/m/{store.plain}",
        data={
            "form_token": form_token(page),
            "read_at": read_at.group(1),
            "content": "The spare key is in the shed.",
            "tags": "home, keys",
            "importance": "0.7",
        },
        headers={"Origin": ORIGIN},
    )
    assert answer.status_code == 303
    assert store.content_of(store.plain) == "The spare key is in the shed."


@pytest.mark.parametrize(
    ("field", "value"), [("importance", "lots"), ("importance", "3"), ("content", " ")]
)
def test_a_bad_edit_is_shown_as_an_error_and_changes_nothing(
    store: Store, field: str, value: str
) -> None:
    client = store.client(store.token)
    page = client.get(f"/ui/m/{store.plain}").text
    data = {
        "form_token": form_token(page),
        "content": "New text",
        "importance": "0.5",
        field: value,
    }
    answer = client.post(f"/ui/m/{store.plain}", data=data, headers={"Origin": ORIGIN})
    assert answer.status_code == 400 and "problem" in answer.text
    assert store.content_of(store.plain).startswith("The spare key")


@pytest.mark.parametrize("memory_id", ["no-such-id", "..%2F..%2Fetc%2Fpasswd", "x" * 300])
def test_a_missing_or_malformed_memory_is_a_page_not_a_crash(store: Store, memory_id: str) -> None:
    answer = store.client(store.token).get(f"/ui/m/{memory_id}")
    assert answer.status_code in (400, 404) and "problem" in answer.text


def test_a_read_only_token_sees_but_cannot_change(store: Store) -> None:
    client = store.client(store.read_only)
    page = client.get(f"/ui/m/{store.plain}")
    assert page.status_code == 200 and 'name="content"' not in page.text
    answer = client.post(
        f"/ui/m/{store.plain}/forget",
        data={"form_token": form_token(page.text)},
        headers={"Origin": ORIGIN},
    )
    assert answer.status_code == 403
    assert store.content_of(store.plain).startswith("The spare key")


def test_a_namespace_token_sees_only_its_namespace(store: Store) -> None:
    client = store.client(store.work_only)
    listing = client.get("/ui/").text
    assert "Deploys happen on Tuesdays." in listing and "spare key" not in listing
    assert client.get(f"/ui/m/{store.plain}").status_code == 404
    assert client.get("/ui/?namespace=default").status_code == 404
    assert "under the blue pot" not in client.get("/ui/?q=spare+key").text


def test_a_revoked_token_loses_its_session_at_the_next_request(store: Store) -> None:
    client = store.client(store.revocable)
    assert client.get("/ui/").status_code == 200
    store.revoke("leaver")
    answer = client.get("/ui/")
    assert answer.status_code == 303 and answer.headers["location"] == "/ui/login"


def test_another_host_name_is_refused(store: Store) -> None:
    client = store.client(store.token)
    answer = client.get("/ui/", headers={"Host": "rebound.example"})
    assert answer.status_code == 421


def test_the_mcp_endpoint_still_wants_its_bearer_token(store: Store) -> None:
    client = store.client(store.token)  # a view session is not an MCP credential
    answer = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert answer.status_code == 401


@pytest.mark.parametrize(("region", "status"), [("../0", 400), ("x", 400), ("9", 404)])
def test_a_bad_or_missing_region_of_the_map_is_a_page(
    store: Store, region: str, status: int
) -> None:
    answer = store.client(store.token).get(f"/ui/map?region={region}")
    assert answer.status_code == status and "problem" in answer.text


def test_the_map_draws_every_memory_as_a_link(store: Store) -> None:
    page = store.client(store.token).get("/ui/map").text
    assert page.count('class="dot') == 3 and f'href="/ui/m/{store.plain}"' in page
    assert '<script src="/ui/static/map.js"></script>' in page


def _import_done(client: TestClient, location: str, done: str = "Import done") -> str:
    """The import's page once it says it is `done` (polled, within a bounded time)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        page = client.get(location).text
        if done in page:
            return page
        time.sleep(0.05)  # the job runs in the server's thread; its page is polled
    raise AssertionError("the import did not finish in time")


def test_export_forget_then_import_restores_what_was_forgotten(store: Store) -> None:
    client = store.client(store.token)
    answer = client.get("/ui/export?namespace=default&vectors=on")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"].startswith('attachment; filename="loci-default-')
    exported = json.loads(answer.content)
    assert {m["content"] for m in exported["memories"]} == {
        "The spare key is under the blue pot.",
        HOSTILE,
    }
    token = form_token(client.get("/ui/transfer").text)
    forgot = client.post(
        f"/ui/m/{store.plain}/forget", data={"form_token": token}, headers={"Origin": ORIGIN}
    )
    assert forgot.status_code == 303
    form = {"form_token": token, "namespace": ""}
    answer = client.post(
        "/ui/import",
        data={**form, "skip_duplicates": "on"},
        files={"file": ("export.json", answer.content, "application/json")},
        headers={"Origin": ORIGIN},
    )
    assert answer.status_code == 303 and answer.headers["location"].startswith("/ui/import/")
    done = _import_done(client, answer.headers["location"])
    assert "1 imported, 1 skipped as already stored" in done
    assert store.content_of(store.plain) == "The spare key is under the blue pot."  # same id
    other = store.client(store.token)  # another session does not see the job
    assert other.get(answer.headers["location"]).status_code == 404


@pytest.mark.parametrize("payload", [b"not json", b"[]", b'{"memories": 3}'])
def test_a_file_that_is_not_an_export_is_refused(store: Store, payload: bytes) -> None:
    client = store.client(store.token)
    form = {"form_token": form_token(client.get("/ui/transfer").text)}
    answer = client.post(
        "/ui/import",
        data=form,
        files={"file": ("x.json", payload, "application/json")},
        headers={"Origin": ORIGIN},
    )
    assert answer.status_code == 400 and "problem" in answer.text


def test_limited_tokens_export_and_import_only_their_own(store: Store) -> None:
    worker = store.client(store.work_only)
    assert worker.get("/ui/export").status_code == 400  # every namespace: not theirs
    assert worker.get("/ui/export?namespace=default").status_code == 404
    assert "Deploys happen" in worker.get("/ui/export?namespace=work").text
    reader = store.client(store.read_only)
    page = reader.get("/ui/transfer").text
    assert 'id="import"' not in page
    answer = reader.post(
        "/ui/import",
        data={"form_token": form_token(page)},
        files={"file": ("x.json", b"{}", "application/json")},
        headers={"Origin": ORIGIN},
    )
    assert answer.status_code == 403


CHATS = Path(__file__).resolve().parent.parent / "fixtures" / "chats"


def _upload_chats(client: TestClient, name: str, data: bytes, **fields: str) -> tuple[int, str]:
    """Post an export to the chat import form; the answer's status and where it leads."""
    page = client.get("/ui/chats").text
    answer = client.post(
        "/ui/chats",
        data={"form_token": form_token(page), **fields},
        files={"file": (name, data, "application/octet-stream")},
        headers={"Origin": ORIGIN},
    )
    return answer.status_code, answer.headers.get("location", "")


def test_chat_history_is_imported_from_the_view(store: Store) -> None:
    client = store.client(store.token)
    assert 'id="chat-import-link"' in client.get("/ui/transfer").text
    session = next((CHATS / "claude-code").rglob("*c1.jsonl"))
    status, location = _upload_chats(client, session.name, session.read_bytes())
    assert status == 303 and location.startswith("/ui/chats/")
    done = _import_done(client, location, "import done")
    assert "1 conversation read (1 new, 0 continued, 0 unchanged), 4 messages; stored 4" in done
    assert "Fix the failing checkout tests" in done and "last line is cut short" in done
    assert "sub-agent lines (isSidechain): 2" in done
    assert store.client(store.token).get(location).status_code == 404  # another session's job
    assert any("Friday 18:00" in text for text in store.contents("claude-code"))


def test_a_chat_export_cut_short_is_told_and_nothing_stored(store: Store) -> None:
    client = store.client(store.token)
    status, location = _upload_chats(client, "export.zip", b"PK\x03\x04" + b"\x00" * 200)
    assert status == 303
    done = _import_done(client, location, "Stopped:")
    assert "export.zip is not a whole zip file" in done
    assert store.contents("claude-code") == []


def test_limited_tokens_import_chats_only_into_their_own(store: Store) -> None:
    claude = (CHATS / "claude" / "conversations.json").read_bytes()
    worker = store.client(store.work_only)
    page = worker.get("/ui/chats").text
    assert "a namespace named after the app" not in page and 'value="work"' in page
    status, _ = _upload_chats(worker, "conversations.json", claude)
    assert status == 400  # no namespace chosen: one named after the app is not its own
    status, location = _upload_chats(worker, "conversations.json", claude, namespace="work")
    assert "stored 6 messages in work" in _import_done(worker, location, "import done")
    reader = store.client(store.read_only)
    assert 'id="chat-import"' not in reader.get("/ui/chats").text
    status, _ = _upload_chats(reader, "conversations.json", claude)
    assert status == 403


def test_without_a_token_on_loopback_the_view_needs_no_login(
    home: Path, embedder: OnnxMiniLM
) -> None:
    settings = load_settings(home=home, http_auth="none")
    seeded = build_app(settings, embedder=embedder)
    memory_id = seeded.memory.remember(MemoryDraft(content="Water the ferns.")).id
    client = TestClient(build_http_app(settings, embedder), base_url=ORIGIN)
    page = client.get(f"/ui/m/{memory_id}")
    assert page.status_code == 200 and "Log out" not in page.text
    answer = client.post(
        f"/ui/m/{memory_id}",
        data={"form_token": form_token(page.text), "content": "Water the ferns weekly."},
        headers={"Origin": ORIGIN},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert seeded.memory.get(memory_id).content == "Water the ferns weekly."
    refused = client.post(
        f"/ui/m/{memory_id}/forget",
        data={"form_token": form_token(page.text)},
        headers={"Origin": "http://evil.example"},
    )
    assert refused.status_code == 403
    seeded.close()

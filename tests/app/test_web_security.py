"""The web view's gate through the real HTTP app (in process), for what testers found open: a
session outliving its token, a notice written by the URL, a Host that only starts like ours,
static files and 404s without the checks and headers of the pages, a token in a URL, and a
context file that makes the browser call the view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.http.bearer import BearerToken
from loci.faces.web.security import host_matches
from loci.settings import load_settings
from tests.app.test_web_view import ORIGIN, Store, form_token

EVIL_HOST = "127.0.0.1:8765.evil.example"


@pytest.fixture
def store(home: Path, embedder: OnnxMiniLM) -> Iterator[Store]:
    made = Store(home, embedder)
    yield made
    made.close()


def test_rotating_the_token_ends_the_sessions_it_opened(store: Store) -> None:
    client = store.client(store.token)
    assert store.guard.view_ticket is not None
    ticketed = store.client()
    assert ticketed.get(f"/ui/login?ticket={store.guard.view_ticket()}").status_code == 303
    page = client.get(f"/ui/m/{store.plain}")
    assert page.status_code == 200 and ticketed.get("/ui/").status_code == 200
    BearerToken(store.settings.home).rotate()  # as `loci token rotate` does, from elsewhere
    for each in (client, ticketed):
        answer = each.get("/ui/")
        assert answer.status_code == 303 and answer.headers["location"] == "/ui/login"
    forget = client.post(
        "/ui/forget",
        data={"form_token": form_token(page.text), "id": store.plain, "confirmed": "yes"},
        headers={"Origin": ORIGIN},
    )
    assert forget.status_code == 303 and forget.headers["location"] == "/ui/login"
    assert store.content_of(store.plain).startswith("The spare key")  # nothing forgotten
    fresh = store.client(BearerToken(store.settings.home).value())  # the new token opens one
    assert fresh.get("/ui/").status_code == 200


def test_a_notice_is_the_servers_own_words_never_the_urls(store: Store) -> None:
    client = store.client(store.token)
    page = client.get("/ui/?forgot=all+of+your&saved=1&corrected=everything").text
    assert "all of your" not in page and 'class="notice"' not in page
    token = form_token(client.get(f"/ui/m/{store.plain}").text)
    forgot = client.post(
        f"/ui/m/{store.plain}/forget", data={"form_token": token}, headers={"Origin": ORIGIN}
    )
    assert forgot.status_code == 303 and forgot.headers["location"] == "/ui/"
    assert '<p class="notice" role="status">Forgot 1 memory.</p>' in client.get("/ui/").text
    assert "Forgot 1 memory." not in client.get("/ui/").text  # said once


@pytest.mark.parametrize(
    "path", ["/ui/", "/ui/login", "/ui/static/loci.css", "/ui/no-such-page", "/mcp", "/favicon.ico"]
)
def test_a_host_that_only_starts_like_ours_is_refused(store: Store, path: str) -> None:
    answer = store.client(store.token).get(path, headers={"Host": EVIL_HOST})
    assert answer.status_code == 421
    assert "text/css" not in answer.headers.get("content-type", "")


def test_host_patterns_admit_a_port_and_nothing_more() -> None:
    patterns = ["127.0.0.1:*", "[::1]:*", "loci.example:8443"]
    for host in ("127.0.0.1:8765", "127.0.0.1", "[::1]:8765", "LOCI.example:8443"):
        assert host_matches(host, patterns), host
    for host in (EVIL_HOST, "127.0.0.1:", "127.0.0.1:x", "127.0.0.10:80", "loci.example:8444",
                 "[::1]:8765.evil", "evil.example"):  # fmt: skip
        assert not host_matches(host, patterns), host


@pytest.mark.parametrize("path", ["/ui/static/loci.css", "/ui/static/map.js", "/ui/no-such-page"])
def test_static_files_and_404s_carry_the_pages_headers(store: Store, path: str) -> None:
    answer = store.client().get(path)
    assert answer.status_code in (200, 404)
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("query", ["token={token}", "access_token={token}", "x=1&TOKEN=abc"])
def test_a_token_in_the_url_of_the_view_is_refused(store: Store, query: str) -> None:
    client = store.client()
    answer = client.get(f"/ui/login?{query.format(token=store.token)}")
    assert answer.status_code == 400 and "never sent in a URL" in answer.text
    assert "set-cookie" not in answer.headers
    posted = client.post(
        f"/ui/login?{query.format(token=store.token)}",
        data={"token": store.token},
        headers={"Origin": ORIGIN},
    )
    assert posted.status_code == 400 and "set-cookie" not in posted.headers


def test_the_favicon_needs_no_token_and_logs_no_refusal(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("WARNING", logger="loci.http"):
        answer = store.client().get("/favicon.ico")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    assert "refused" not in caplog.text
    assert 'rel="icon" href="data:image/svg+xml,' in store.client().get("/ui/login").text


def test_a_context_file_makes_the_browser_fetch_nothing_from_the_view(
    home: Path, embedder: OnnxMiniLM
) -> None:
    settings = load_settings(home=home)
    app = build_app(settings, embedder=embedder)
    folder = home.parent / "trap-app"
    folder.mkdir()
    project = app.context.init_project(str(folder), "trap-app").project_id
    example = app.context.templates.get("features").example()
    trap = "\n![x](/ui/export?vectors=on) ![m](/ui/map) ![far](https://example.org/p.png)\n"
    app.context.update_context(project, "features", example + trap, force=True)
    app.close()
    store = Store(home, embedder)
    answer = store.client(store.token).get(f"/ui/context/{project}/features")
    store.close()
    assert answer.status_code == 200
    assert "<img" not in answer.text and 'src="/ui' not in answer.text
    assert "[image: x] <code>/ui/export?vectors=on</code>" in answer.text
    policy = answer.headers["content-security-policy"]
    assert "img-src data:;" in policy and "img-src 'self'" not in policy

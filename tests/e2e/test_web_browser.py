"""The web view in a real browser (Debian's chromium, driven by Playwright) against a real
`loci serve --transport http` process: log in with the token, search and open a memory, edit
it and find the edit by searching, forget one after confirming, forget a selection, see
hostile text as text, a page of another origin that cannot make the view write, a context
file that cannot make the browser call the view, two views on two ports that keep their own
sessions, the map's hover text beside its dot, and a phone's width."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft
from tests.e2e.browser import WAIT_MS, chromium, need_chromium, screenshots_folder
from tests.e2e.http_server import Served, free_port, http_server
from tests.storytext import filler
from tests.topics import TOPICS

pytestmark = pytest.mark.timeout(300)

HOSTILE = ['<script>alert("memory")</script>', '"><img src=x onerror=alert("tag")>']
NOTES = [
    "The spare key to the allotment shed is under the blue flowerpot.",
    "Deployments to production happen on Tuesdays after the standup.",
    "Priya prefers Neovim with the gruvbox theme for editing.",
    "The Lisbon trip is booked for the second week of June.",
    "The boiler was serviced in March; next service is due in March.",
]


#: Images of a context file that would make every reader's browser call the view.
TRAP = "\n![x](/ui/export?vectors=on) ![m](/ui/map)\n"
#: A phone's screen (CSS pixels).
PHONE = {"width": 390, "height": 844}

HARBOUR = (
    'Tobias Reed mended the nets, and Tobias Reed laughed. "Tide," said Pim, and Pim '
    "whistled as he worked. Mira Voss rowed in from Port Elder, and Mira Voss waved."
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, embedder: OnnxMiniLM) -> Iterator[Served]:
    """A data folder with a few memories (hostile ones too), served over HTTP."""
    need_chromium()
    home = tmp_path_factory.mktemp("view-home")
    seeded = build_app(load_settings(home=home), embedder=embedder)
    for text in NOTES:
        seeded.memory.remember(MemoryDraft(content=text, tags=["notes"]))
    for text in HOSTILE:
        seeded.memory.remember(MemoryDraft(content=text, tags=[text[:40]], namespace="odd"))
    folder = home.parent / "kitchen-app"
    folder.mkdir()
    project = seeded.context.init_project(str(folder), "kitchen-app").project_id
    example = seeded.context.templates.get("features").example()
    seeded.context.update_context(project, "features", example)
    seeded.context.update_context(project, "features", example + "\nOne more line.\n")
    bugs = seeded.context.templates.get("bugs").example()
    seeded.context.update_context(project, "bugs", bugs + TRAP, force=True)
    for n in range(30):  # a long list of namespaces, as a team's store has
        seeded.catalog.namespaces("create", f"project-{n:02d}")
    seeded.checkpoints.save({"goal": "bake bread", "debug_log": "..." * 50}, "baking")
    small = {"max_tokens": 1000}  # a small window: a few reliefs for the gauge to show
    for n in range(12):
        text = f"{HARBOUR} {filler(n)}"
        seeded.story.continue_story("harbour", "Go on.", text, small if n == 0 else None)
    for start in range(0, len(TOPICS), 100):
        batch = TOPICS[start : start + 100]
        seeded.memory.remember_batch([MemoryDraft(content=t, namespace="topics") for t in batch])
    seeded.close()
    with http_server(home) as running:
        yield running


@pytest.fixture
def page(served: Served) -> Iterator[Any]:
    """A logged-in page; any dialog (an alert a script would raise) is recorded."""
    with chromium() as browser:
        context = browser.new_context()  # type: ignore[attr-defined]
        opened = context.new_page()
        opened.set_default_timeout(WAIT_MS)
        opened.dialogs = []
        opened.on(
            "dialog", lambda dialog: (opened.dialogs.append(dialog.message), dialog.dismiss())
        )
        opened.goto(f"http://127.0.0.1:{served.port}/ui/")
        opened.fill("#token", served.token)
        opened.click("button:has-text('Log in')")
        opened.wait_for_url("**/ui/")
        yield opened
        context.close()


def search(page: Any, words: str) -> None:
    page.fill("input[name=q]", words)
    page.press("input[name=q]", "Enter")
    page.wait_for_selector("ol.memories")


def test_search_open_and_edit_a_memory(page: Any, tmp_path: Path) -> None:
    shots = screenshots_folder(tmp_path)
    page.screenshot(path=str(shots / "memories.png"))
    search(page, "where is the shed key?")
    first = page.locator("ol.memories li a.text").first
    assert "spare key" in first.inner_text()
    page.check("input[name=explain]")
    page.press("input[name=q]", "Enter")
    page.locator("details.signals summary").first.click()
    why = page.locator("details.signals ul").first
    assert why.is_visible() and "close in meaning to the search" in why.inner_text()
    page.screenshot(path=str(shots / "search.png"), full_page=True)
    page.locator("ol.memories li a.text").first.click()
    page.wait_for_selector("#edit-content")
    assert page.locator("h2:has-text('Nearby') + ol li").count() >= 1
    page.fill("#edit-content", "The spare key to the allotment shed hangs inside the porch.")
    page.fill("#edit-tags", "notes\nkeys, spare")
    page.screenshot(path=str(shots / "memory.png"), full_page=True)
    page.click("button:has-text('Save')")
    page.wait_for_selector("text=Saved.")
    assert "hangs inside the porch" in page.inner_text("#content")
    assert page.locator("#tags a.tag").all_inner_texts() == ["notes", "keys, spare"]
    page.goto(page.url.split("/ui/")[0] + "/ui/")
    search(page, "porch")
    assert "hangs inside the porch" in page.locator("ol.memories li a.text").first.inner_text()
    assert (shots / "memory.png").stat().st_size > 10_000


def test_forget_one_memory_after_confirming(page: Any) -> None:
    search(page, "boiler service")
    page.locator("ol.memories li a.text", has_text="boiler").first.click()
    page.click("text=Forget this memory…")
    page.wait_for_selector("h1:has-text('Forget 1 memory?')")
    page.click("button:has-text('Forget')")
    page.wait_for_selector("text=Forgot 1 memory.")
    search(page, "boiler service")
    assert "boiler" not in page.inner_text("section")


def test_forget_a_selection_after_confirming(page: Any) -> None:
    page.goto(page.url.split("/ui/")[0] + "/ui/?tag=notes")
    before = page.locator("ol.memories li").count()
    for words in ("Deployments", "Neovim"):  # other tests use the other notes
        page.locator("ol.memories li", has_text=words).locator("input[name=id]").check()
    page.click("button:has-text('Forget selected…')")
    page.wait_for_selector("h1:has-text('Forget 2 memories?')")
    page.click("button:has-text('Forget')")
    page.wait_for_selector("text=Forgot 2 memories.")
    page.goto(page.url.split("/ui/")[0] + "/ui/?tag=notes")
    assert page.locator("ol.memories li").count() == before - 2


def test_hostile_text_is_shown_as_text_on_every_page(page: Any) -> None:
    page.goto(page.url.split("/ui/")[0] + "/ui/?namespace=odd")
    listed = page.inner_text("ol.memories")
    for text in HOSTILE:
        assert text in listed
    page.locator("ol.memories li a.text").first.click()
    page.wait_for_selector("#content")
    shown = page.inner_text("#content")
    assert shown in HOSTILE
    page.click("text=Forget this memory…")
    assert shown in page.inner_text("ol.memories")
    assert page.locator("img[src=x]").count() == 0
    assert page.dialogs == []  # no script of a memory ran


@pytest.mark.parametrize(
    ("host", "refusal"),
    [
        # Another port of the same address: the same site, so the browser sends the cookie;
        # the view sees the foreign Origin and refuses.
        ("127.0.0.1", "another site"),
        # Another host name: another site, so the strict cookie stays home; no session.
        ("localhost", "Log in"),
    ],
)
def test_a_page_of_another_origin_cannot_make_the_view_write(
    page: Any, host: str, refusal: str
) -> None:
    search(page, "Lisbon trip")
    page.locator("ol.memories li a.text").first.click()
    page.wait_for_selector("#content")
    target = page.url
    hostile = (
        "<!doctype html><form id=f method=post action='" + target + "/forget'>"
        "<input name=form_token value=guess></form>"
        "<script>document.getElementById('f').submit()</script>"
    )
    with _Site(hostile, host) as elsewhere:
        page.goto(elsewhere)
        page.wait_for_url(f"{target}/forget" if host == "127.0.0.1" else "**/ui/login")
        assert refusal in page.content()
    page.goto(target)
    assert "Lisbon" in page.inner_text("#content")  # still there


class _Hostile(http.server.BaseHTTPRequestHandler):
    body = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: Any) -> None:
        del format, args


class _Site:
    """A page served from another origin (another port) for the length of a `with`."""

    def __init__(self, html: str, host: str) -> None:
        handler = type("Handler", (_Hostile,), {"body": html.encode()})
        self.host = host
        self.port = free_port()
        self.server = http.server.HTTPServer(("127.0.0.1", self.port), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        return f"http://{self.host}:{self.port}/"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_zoom_the_map_mark_a_search_and_open_a_dot(page: Any, tmp_path: Path) -> None:
    base = page.url.split("/ui/")[0]
    page.goto(f"{base}/ui/map?namespace=topics")
    page.wait_for_selector("#map[data-ready='1']")
    assert page.locator("ul.regions li").count() >= 3
    page.screenshot(path=str(screenshots_folder(tmp_path) / "map.png"), full_page=True)
    everything = page.locator("#map a.dot").count()
    page.click("ul.regions a[data-region='0']")  # open a region: its memories alone
    page.wait_for_selector("nav.trail a[data-region='0']")
    assert "region 0" not in page.inner_text("nav.trail")  # named by its label
    page.wait_for_selector("#map[data-ready='1']")
    assert 0 < page.locator("#map a.dot").count() < everything
    page.goto(f"{base}/ui/map?q=allotment+shed+key")
    page.wait_for_selector("#map[data-ready='1']")
    dots = page.locator("#map a.dot")
    assert dots.count() >= 4
    assert page.locator("#map a.dot.hit").count() >= 1
    layout = page.locator("#map a.dot").evaluate_all(
        "dots => dots.map(d => d.getAttribute('href') + d.firstElementChild.getAttribute('cx')).sort()"
    )
    page.click("button[data-zoom=in]")
    assert float(page.get_attribute("#map", "data-zoom") or 0) > 1.4
    box = page.locator("#map").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    page.wait_for_function("Number(document.getElementById('map').dataset.zoom) > 1.6")
    page.click("button[data-zoom=reset]")
    target = page.locator("#map a.dot.hit[data-label*='allotment shed']")
    target.hover()
    assert page.inner_text("#map-hover") == target.get_attribute("data-label")
    target.click()
    page.wait_for_selector("#content")
    assert "allotment shed" in page.inner_text("#content")
    page.goto(f"{base}/ui/map")  # the same store gives the same picture
    again = page.locator("#map a.dot").evaluate_all(
        "dots => dots.map(d => d.getAttribute('href') + d.firstElementChild.getAttribute('cx')).sort()"
    )
    assert again == layout


def test_open_a_context_file_and_its_changes(page: Any, tmp_path: Path) -> None:
    page.click("header nav >> text=Context files")
    page.click("a:has-text('features')")
    page.wait_for_selector("#document")
    assert "Valid against" in page.inner_text("#validation")
    page.click("text=changes since this one")
    page.wait_for_selector("#diff")
    added = page.locator("#diff .add").all_inner_texts()
    assert "+One more line." in added
    page.screenshot(path=str(screenshots_folder(tmp_path) / "context.png"), full_page=True)


def test_open_a_checkpoint(page: Any, tmp_path: Path) -> None:
    page.click("header nav >> text=Checkpoints")
    page.click("a:has-text('baking')")
    page.wait_for_selector("#timeline")
    page.locator("#timeline a").first.click()
    page.wait_for_selector("#checkpoint-content")
    assert "bake bread" in page.inner_text("#checkpoint-content")
    assert "EPHEMERAL" in page.inner_text("#parts")
    page.screenshot(path=str(screenshots_folder(tmp_path) / "checkpoint.png"), full_page=True)


def test_merge_two_characters_from_the_story_page(page: Any, tmp_path: Path) -> None:
    page.click("header nav >> text=Stories")
    page.click("a:has-text('harbour')")
    page.wait_for_selector("#gauge")
    page.screenshot(path=str(screenshots_folder(tmp_path) / "story.png"), full_page=True)
    page.click("#cast >> text=Tobias Reed")
    page.fill("#merge input[name=other]", "Pim")
    page.click("#merge button")
    page.wait_for_selector("text=Corrected (merge).")
    assert "Pim" in page.inner_text("#aliases")
    page.click("text=← harbour")
    assert "Pim" not in [name.strip() for name in page.locator("#cast li a").all_inner_texts()]


def test_export_and_import_with_progress(page: Any, tmp_path: Path) -> None:
    page.click("header nav >> text=Export and import")
    page.select_option("#export select[name=namespace]", "topics")
    with page.expect_download() as started:
        page.click("#export button")
    saved = tmp_path / "topics.json"
    started.value.save_as(saved)
    assert saved.stat().st_size > 10_000
    page.set_input_files("#import-file", str(saved))
    page.click("#import button")
    page.wait_for_selector("h1:has-text('Import done')", timeout=120_000)
    assert "200 skipped as already stored" in page.inner_text("#import-state")
    assert page.get_attribute("#import-progress", "value") == "200"


def test_import_a_chat_export_from_the_view(page: Any, tmp_path: Path) -> None:
    page.click("header nav >> text=Export and import")
    page.click("#chat-import-link")
    chats = Path(__file__).resolve().parent.parent / "fixtures" / "chats"
    page.set_input_files("#chat-file", str(chats / "claude" / "conversations.json"))
    page.select_option("#chat-format", "claude")
    page.click("#chat-import button")
    page.wait_for_selector("h1:has-text('import done')", timeout=120_000)
    summary = page.inner_text("#chat-import-summary")
    assert "2 conversations read (2 new" in summary and "stored 6 messages in claude" in summary
    assert "Garden plans" in page.inner_text("table")
    page.screenshot(path=str(screenshots_folder(tmp_path) / "chat-import.png"), full_page=True)


def test_hostile_text_on_the_map_is_text(page: Any) -> None:
    page.goto(page.url.split("/ui/")[0] + "/ui/map?namespace=odd")
    page.wait_for_selector("#map[data-ready='1']")
    labels = page.locator("#map a.dot").evaluate_all("dots => dots.map(d => d.dataset.label)")
    assert sorted(labels) == sorted(HOSTILE)
    for dot in page.locator("#map a.dot").all():  # in the corners: nothing lies over them
        dot.hover()
        assert page.inner_text("#map-hover") == dot.get_attribute("data-label")
    page.locator("#map a.dot").first.focus()  # as a keyboard reaches it
    assert page.inner_text("#map-hover") in HOSTILE
    assert page.locator("#map img").count() == 0 and page.dialogs == []


def test_a_context_file_makes_the_browser_call_nothing_of_the_view(page: Any) -> None:
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.click("header nav >> text=Context files")
    page.click("a:has-text('bugs')")
    page.wait_for_selector("#document")
    page.reload()  # every view of the file, not only the first
    page.wait_for_selector("#document")
    called = [url.split("/ui/", 1)[-1] for url in asked if "/ui/" in url]
    assert not [path for path in called if path.startswith(("export", "map"))], called
    assert page.locator("#document img").count() == 0
    assert "[image: x]" in page.inner_text("#document")  # said, not loaded


def test_two_views_on_two_ports_keep_their_own_sessions(
    page: Any, tmp_path: Path, embedder: OnnxMiniLM
) -> None:
    other_home = tmp_path / "other-home"
    build_app(load_settings(home=other_home), embedder=embedder).close()
    first = page.url  # logged in to the module's server
    with http_server(other_home) as other:
        second = page.context.new_page()
        second.set_default_timeout(WAIT_MS)
        second.goto(f"http://127.0.0.1:{other.port}/ui/")
        second.fill("#token", other.token)
        second.click("button:has-text('Log in')")
        second.wait_for_url("**/ui/")
        page.goto(first)  # the first view still knows its browser
        assert page.url == first and page.locator("#token").count() == 0
        second.reload()
        assert second.url.endswith("/ui/") and second.locator("#token").count() == 0


def test_a_visit_asks_for_no_icon_and_logs_no_refusal(page: Any, served: Served) -> None:
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    for path in ("/ui/", "/ui/map", "/ui/checkpoints"):
        page.goto(page.url.split("/ui/")[0] + path)
        page.wait_for_selector("main")
    assert not [url for url in asked if url.endswith("/favicon.ico")]
    assert "refused (401" not in served.stderr()


def test_the_maps_hover_text_is_beside_its_dot(page: Any) -> None:
    page.goto(page.url.split("/ui/")[0] + "/ui/map?namespace=topics")
    page.wait_for_selector("#map[data-ready='1']")
    viewport = page.viewport_size
    for dot in page.locator("#map a.dot").all()[:40:13]:
        dot.hover()
        text = page.locator("#map-hover")
        assert text.is_visible() and text.inner_text() == dot.get_attribute("data-label")
        near, shown = dot.bounding_box(), text.bounding_box()
        assert near is not None and shown is not None
        gap_x = max(
            0.0, shown["x"] - (near["x"] + near["width"]), near["x"] - (shown["x"] + shown["width"])
        )
        gap_y = max(
            0.0,
            shown["y"] - (near["y"] + near["height"]),
            near["y"] - (shown["y"] + shown["height"]),
        )
        assert gap_x <= 24 and gap_y <= 24, (near, shown)
        assert shown["y"] + shown["height"] <= viewport["height"]  # in sight, not under the map


#: Pages a phone must show without scrolling sideways.
PHONE_PAGES = ["/ui/", "/ui/map", "/ui/tags", "/ui/checkpoints", "/ui/context", "/ui/stories",
               "/ui/story/harbour", "/ui/transfer"]  # fmt: skip


def test_a_phones_width_needs_no_sideways_scrolling(served: Served, tmp_path: Path) -> None:
    with chromium() as browser:
        context = browser.new_context(viewport=PHONE)  # type: ignore[attr-defined]
        phone = context.new_page()
        phone.set_default_timeout(WAIT_MS)
        phone.goto(f"http://127.0.0.1:{served.port}/ui/login")
        phone.fill("#token", served.token)
        phone.click("button:has-text('Log in')")
        phone.wait_for_url("**/ui/")
        # The list of namespaces leaves the search in the first half of the first screen.
        search = phone.locator("input[name=q]").bounding_box()
        assert search is not None and search["y"] + search["height"] <= PHONE["height"] / 2
        phone.screenshot(path=str(screenshots_folder(tmp_path) / "phone.png"))
        widths = {}
        for path in PHONE_PAGES:
            phone.goto(f"http://127.0.0.1:{served.port}{path}")
            phone.wait_for_selector("main")
            widths[path] = phone.evaluate("document.documentElement.scrollWidth")
        context.close()
    assert {path: width for path, width in widths.items() if width > PHONE["width"]} == {}


def test_loci_token_rotate_ends_the_session_it_opened(page: Any, served: Served) -> None:
    old = served.token
    rotated = subprocess.run(
        [sys.executable, "-m", "loci", "token", "rotate"],
        env={**os.environ, "LOCI_HOME": str(served.home)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert rotated.returncode == 0, rotated.stderr
    page.reload()
    page.wait_for_url("**/ui/login")
    page.fill("#token", old)  # the old token opens nothing now
    page.click("button:has-text('Log in')")
    assert page.locator(".problem").is_visible() and page.url.endswith("/ui/login")
    page.fill("#token", served.token)  # the new one does
    page.click("button:has-text('Log in')")
    page.wait_for_url("**/ui/")

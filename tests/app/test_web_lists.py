"""The memories pages through the real HTTP app (in process), for what testers found: a tag
with a comma split by an edit, metadata shown as escapes, a search that dropped the date and
importance filters, twenty "hits" for nonsense, a filter that finds nothing called an empty
store, raw signal names in "why", "1 times", lists without a first or previous page or a
total, tags and namespaces that were not links, and no page of tags."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.http.app import build_http_app
from loci.faces.http.bearer import BearerToken
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft
from tests.app.test_web_view import ORIGIN, form_token

METADATA = {"city": "café", "place": "城市", "show": "Tom & Jerry's"}
FILLER = [f"Logbook entry {n}: the harbour pilot noted the tide at dawn." for n in range(120)]


class Seeded:
    """A store with a few notes of known tags, importance and metadata, and a namespace of
    120 memories (three pages of the list), served by the real HTTP app."""

    def __init__(self, home: Path, embedder: OnnxMiniLM) -> None:
        settings = load_settings(home=home)
        self.app: App = build_app(settings, embedder=embedder)
        remember = self.app.memory.remember
        self.city = remember(
            MemoryDraft(
                content="The office moved to the new tower downtown.",
                tags=["new york, ny", "work"],
                metadata=METADATA,
                importance=0.9,
            )
        ).id
        self.minor = remember(
            MemoryDraft(content="The office plants need water on Fridays.", importance=0.1)
        ).id
        for start in (0, 60):
            self.app.memory.remember_batch(
                [
                    MemoryDraft(content=text, namespace="log", tags=["tide"])
                    for text in FILLER[start : start + 60]
                ]
            )
        self.once = remember(
            MemoryDraft(content="Grandma's recipe uses cardamom.", namespace="once")
        ).id
        self.app.memory.recall("cardamom recipe", 1, "once")  # recalled once, by an agent
        self.guard = build_http_app(settings, embedder)
        self.token = BearerToken(home).value()

    def client(self) -> TestClient:
        client = TestClient(self.guard, base_url=ORIGIN, follow_redirects=False)
        answer = client.post("/ui/login", data={"token": self.token}, headers={"Origin": ORIGIN})
        assert answer.status_code == 303
        return client


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory, embedder: OnnxMiniLM) -> Iterator[Seeded]:
    made = Seeded(tmp_path_factory.mktemp("lists") / "home", embedder)
    yield made
    made.app.close()


def texts(page: str) -> list[str]:
    """The memory texts a list shows, in order."""
    found = re.findall(r'<a class="text" href="/ui/m/[^"]+">([^<]*)</a>', page)
    return [html.unescape(text) for text in found]


def test_a_tag_with_a_comma_survives_an_edit(seeded: Seeded) -> None:
    client = seeded.client()
    page = client.get(f"/ui/m/{seeded.city}").text
    shown = re.search(r'<textarea id="edit-tags" name="tags"[^>]*>([^<]*)</textarea>', page)
    read_at = re.search(r'name="read_at" value="([^"]+)"', page)
    assert shown is not None and read_at is not None
    answer = client.post(
        f"/ui/m/{seeded.city}",
        data={
            "form_token": form_token(page),
            "read_at": read_at.group(1),
            "content": "The office moved to the new tower downtown, floor 12.",
            "tags": html.unescape(shown.group(1)),  # as the form sends it back
            "importance": "0.9",
        },
        headers={"Origin": ORIGIN},
    )
    assert answer.status_code == 303
    assert seeded.app.memory.get(seeded.city).tags == ["new york, ny", "work"]


def test_metadata_is_shown_as_its_text(seeded: Seeded) -> None:
    page = seeded.client().get(f"/ui/m/{seeded.city}").text
    metadata = page.split('<pre class="metadata"')[1].split("</pre>")[0]
    assert "café" in metadata and "城市" in metadata
    assert html.unescape(metadata).count("Tom & Jerry's") == 1
    assert "\\u" not in metadata


def test_recalled_once_is_one_time(seeded: Seeded) -> None:
    page = seeded.client().get(f"/ui/m/{seeded.once}").text
    recalled = re.search(r"<dt>recalled</dt><dd[^>]*>([^<]*)</dd>", page)
    assert recalled is not None and recalled.group(1).startswith("1 time, last ")


def test_a_search_applies_the_importance_and_date_filters_and_keeps_them(seeded: Seeded) -> None:
    client = seeded.client()
    everything = client.get("/ui/?q=the+office").text
    assert {"The office plants need water on Fridays."} <= set(texts(everything))
    important = client.get("/ui/?q=the+office&min_importance=0.5").text
    assert "The office plants need water on Fridays." not in texts(important)
    assert any(text.startswith("The office moved") for text in texts(important))
    assert 'name="min_importance" value="0.5"' in important  # the filter is still shown
    later = client.get("/ui/?q=the+office&since=2999-01-01").text
    assert texts(later) == [] and "Nothing found with these filters." in later
    assert 'name="since" value="2999-01-01"' in later and 'id="search-dates"' in later


def test_a_nonsense_search_lists_no_hits_and_says_so(seeded: Seeded) -> None:
    page = seeded.client().get("/ui/?q=qwzx+vbnm+plokij").text
    assert texts(page) == []
    assert "Nothing matched “qwzx vbnm plokij” well" in page
    anyway = seeded.client().get("/ui/?q=qwzx+vbnm+plokij&weak=on").text
    assert len(texts(anyway)) == 20  # asked for: the closest, weak as they are


def test_a_filter_that_excludes_everything_says_so(seeded: Seeded) -> None:
    page = seeded.client().get("/ui/?tag=no-such-tag").text
    assert "No memory matches these filters." in page and "No memories here yet" not in page


def test_why_is_said_in_words(seeded: Seeded) -> None:
    page = seeded.client().get("/ui/?q=office+tower&explain=on").text
    why = page.split('<details class="signals">')[1].split("</details>")[0]
    assert re.search(r"close in meaning to the search \(similarity 0\.\d\d\)", why)
    assert "group_keyword" not in why and "vector" not in why


def test_a_list_has_first_previous_and_next_pages_and_a_total(seeded: Seeded) -> None:
    client = seeded.client()
    first = client.get("/ui/?namespace=log").text
    assert "Memories 1\N{EN DASH}50 of 120." in first
    assert 'rel="prev"' not in first and 'rel="first"' not in first
    following = html.unescape(re.findall(r'rel="next" href="([^"]+)"', first)[0])
    second = client.get(following).text
    assert "Memories 51\N{EN DASH}100 of 120." in second
    assert html.unescape(re.findall(r'rel="prev" href="([^"]+)"', second)[0]) == (
        "/ui/?namespace=log"
    )
    third = client.get(html.unescape(re.findall(r'rel="next" href="([^"]+)"', second)[0])).text
    assert "Memories 101\N{EN DASH}120 of 120." in third and 'rel="next"' not in third
    back = client.get(html.unescape(re.findall(r'rel="prev" href="([^"]+)"', third)[0])).text
    assert texts(back) == texts(second)
    assert set(texts(first)) | set(texts(second)) | set(texts(third)) == set(FILLER)
    restart = html.unescape(re.findall(r'rel="first" href="([^"]+)"', third)[0])
    assert texts(client.get(restart).text) == texts(first)


def test_tags_and_namespaces_in_cards_are_links(seeded: Seeded) -> None:
    page = seeded.client().get("/ui/?namespace=default").text
    assert 'class="tag" href="/ui/?tag=new%20york%2C%20ny&amp;namespace=default"' in page
    assert 'class="ns" href="/ui/?namespace=default"' in page


def test_a_page_lists_the_tags_with_their_counts(seeded: Seeded) -> None:
    page = seeded.client().get("/ui/tags").text
    listed = page.split('id="tags"')[1]
    assert re.search(r'href="/ui/\?tag=tide">tide</a> <span class="count">120</span>', listed)
    assert ">new york, ny</a>" in listed and ">work</a>" in listed


def test_a_search_in_the_view_counts_no_access(seeded: Seeded) -> None:
    client = seeded.client()
    assert "cardamom" in client.get("/ui/?q=cardamom+recipe&namespace=once").text
    client.get("/ui/map?namespace=log&q=harbour+pilot")
    assert seeded.app.memory.get(seeded.once).access_count == 1  # the agent's recall only

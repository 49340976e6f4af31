"""The web view's context files and checkpoints pages through the real HTTP app (in process):
a document rendered with its raw HTML escaped, its validation, the changes between two
versions; a session's timeline and a checkpoint's keys by tier; an encrypted checkpoint that
the server has no key for, whose content never reaches the page; and a token without a
toolset kept out of its pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.http.app import build_http_app
from loci.faces.http.bearer import BearerToken
from loci.settings import load_settings

ORIGIN = "http://127.0.0.1:8765"
SECRET = "the launch code is 0000"

pytestmark = pytest.mark.usefixtures("no_os_keychain")


class Pages:
    """A data folder with a project's context file in two versions and two checkpoint
    sessions (one of them encrypted), served by the real HTTP app."""

    def __init__(self, home: Path, embedder: OnnxMiniLM) -> None:
        settings = load_settings(home=home)
        app = build_app(settings, embedder=embedder)
        folder = home.parent / "garden-app"
        folder.mkdir()
        project = app.context.init_project(str(folder), "garden-app")
        self.project = project.project_id
        example = app.context.templates.get("features").example()
        first = example + "\n<script>alert('doc')</script>\n\n[a link](javascript:alert(1))\n"
        assert app.context.update_context(self.project, "features", first).status == "success"
        second = first.replace("\n## ", "\n## ", 1) + "\nA line added in the second version.\n"
        assert app.context.update_context(self.project, "features", second).status == "success"
        context = {"goal": "ship the beta", "plan": ["write", "test"], "debug_log": "x" * 400}
        self.plain = app.checkpoints.save(context, "plain-session").checkpoint_id
        self.reader, _ = app.access.create("memory-only", toolsets=["memory"])
        app.close()
        self.key_file = home.parent / "loci-key"  # outside the data folder, as it must be
        secret = load_settings(home=home, encryption="enabled", encryption_key_file=self.key_file)
        locked_app = build_app(secret, embedder=embedder)
        self.locked = locked_app.checkpoints.save({"note": SECRET}, "locked-session").checkpoint_id
        locked_app.close()
        self.settings, self.embedder = secret, embedder
        self.guard = build_http_app(secret, embedder)
        self.token = BearerToken(home).value()

    def client(self, token: str | None = None) -> TestClient:
        client = TestClient(self.guard, base_url=ORIGIN, follow_redirects=False)
        answer = client.post(
            "/ui/login", data={"token": token or self.token}, headers={"Origin": ORIGIN}
        )
        assert answer.status_code == 303, answer.text
        return client


@pytest.fixture
def pages(home: Path, embedder: OnnxMiniLM) -> Pages:
    return Pages(home, embedder)


def test_projects_list_their_files(pages: Pages) -> None:
    page = pages.client().get("/ui/context")
    assert page.status_code == 200
    assert "garden-app" in page.text and f"/ui/context/{pages.project}/features" in page.text


def test_a_file_is_rendered_with_its_raw_html_escaped(pages: Pages) -> None:
    page = pages.client().get(f"/ui/context/{pages.project}/features").text
    assert "<script>alert('doc')</script>" not in page
    assert "&lt;script&gt;alert(" in page
    assert "<h2>" in page  # the Markdown is rendered
    assert 'href="javascript:' not in page  # and its unsafe links are not links
    assert "version 2 of 2" in page and "Valid against" in page


def test_the_changes_between_two_versions(pages: Pages) -> None:
    page = pages.client().get(f"/ui/context/{pages.project}/features?version=2&against=1").text
    assert '<span class="add">+A line added in the second version.</span>' in page
    assert "Changes from version 1" in page


@pytest.mark.parametrize(
    "path",
    ["/ui/context/no-such-project/features", "/ui/context/{project}/no-such-type",
     "/ui/context/{project}/features?version=99", "/ui/context/{project}/features?version=-1"],
)  # fmt: skip
def test_a_missing_project_file_or_version_is_a_page_not_a_crash(pages: Pages, path: str) -> None:
    answer = pages.client().get(path.format(project=pages.project))
    assert answer.status_code in (400, 404) and "problem" in answer.text


def test_a_session_timeline_and_a_checkpoint_by_tier(pages: Pages) -> None:
    client = pages.client()
    assert "plain-session" in client.get("/ui/checkpoints").text
    timeline = client.get("/ui/checkpoints/plain-session").text
    assert pages.plain in timeline and "\N{MULTIPLICATION SIGN}" in timeline  # compression
    page = client.get(f"/ui/checkpoint/{pages.plain}").text
    assert "ship the beta" in page
    rows = page.split('id="parts"')[1]
    assert rows.index("goal") < rows.index("plan") < rows.index("debug_log")  # by tier
    assert 'class="tier-EPHEMERAL">EPHEMERAL' in rows


def test_an_encrypted_checkpoint_is_opened_only_with_the_key(pages: Pages) -> None:
    client = pages.client()
    assert SECRET in client.get(f"/ui/checkpoint/{pages.locked}").text  # the key is here
    pages.key_file.rename(pages.key_file.with_suffix(".away"))
    pages.guard = build_http_app(pages.settings, pages.embedder)  # a server started since
    page = pages.client().get(f"/ui/checkpoint/{pages.locked}")
    assert page.status_code == 200 and "cannot open" in page.text
    assert SECRET not in page.text


def test_a_token_without_a_toolset_is_kept_out_of_its_pages(pages: Pages) -> None:
    client = pages.client(pages.reader)
    assert client.get("/ui/context").status_code == 403
    assert client.get(f"/ui/checkpoint/{pages.plain}").status_code == 403
    assert "ship the beta" not in client.get(f"/ui/checkpoint/{pages.plain}").text
    assert client.get("/ui/").status_code == 200


STORY = (
    'Tobias Reed mended the nets, and Tobias Reed laughed. "Tide," said Pim, and Pim '
    "whistled as he worked. Mira Voss rowed in from Port Elder, and Mira Voss waved."
)


@pytest.fixture
def story(pages: Pages) -> TestClient:
    """A logged-in client of a server whose store holds the story session `harbour`."""
    app = build_app(pages.settings, embedder=pages.embedder)
    app.story.continue_story("harbour", "Begin at the harbour.", STORY)
    app.close()
    return pages.client()


def test_a_story_page_shows_its_gauge_cast_and_search(story: TestClient) -> None:
    assert "/ui/story/harbour" in story.get("/ui/stories").text
    page = story.get("/ui/story/harbour?q=who+mended+the+nets").text
    assert 'aria-label="Window' in page and "Tobias Reed" in page.split('id="cast"')[1]
    assert "mended the nets" in page.split('id="story-hits"')[1]


def test_a_correction_from_the_character_page(story: TestClient) -> None:
    page = story.get("/ui/story/harbour/who/Tobias%20Reed").text
    # "Reed", written only inside "Tobias Reed", finds him but is no name to split off.
    also = page.split('id="aliases">')[1].split("</dd>")[0].split(", ")
    assert "Reed" in also
    assert "<option>Reed</option>" not in page.split('id="split"')[1].split("</form>")[0]
    form = {"form_token": form_token(page), "action": "merge", "name": "Tobias Reed"}
    answer = story.post(
        "/ui/story/harbour/correct", data={**form, "other": "Pim"}, headers={"Origin": ORIGIN}
    )
    assert answer.status_code == 303
    after = story.get(answer.headers["location"]).text
    assert "Corrected (merge)" in after and "Pim" in after.split('id="aliases"')[1]


@pytest.mark.parametrize(
    ("action", "other", "status"),
    [("merge", "Nobody", 404), ("kind", "ghost", 400), ("explode", "Pim", 400)],
)
def test_a_bad_correction_is_a_page_and_changes_nothing(
    story: TestClient, action: str, other: str, status: int
) -> None:
    page = story.get("/ui/story/harbour/who/Pim").text
    form = {"form_token": form_token(page), "action": action, "name": "Pim", "other": other}
    answer = story.post("/ui/story/harbour/correct", data=form, headers={"Origin": ORIGIN})
    assert answer.status_code == status and "problem" in answer.text
    assert story.get("/ui/story/harbour/who/Pim").text.count("Corrected") == 0


def test_a_missing_session_or_name_is_a_page_not_a_crash(story: TestClient) -> None:
    for path in ("/ui/story/nope", "/ui/story/harbour/who/Nobody", "/ui/story/..%2F..%2Fetc"):
        answer = story.get(path)
        assert answer.status_code in (400, 404) and "problem" in answer.text, path


def form_token(page: str) -> str:
    found = re.search(r'name="form_token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    "path", ["/ui/checkpoint/cp-no-such-checkpoint", "/ui/checkpoints/no-such-session"]
)
def test_a_missing_checkpoint_or_session_is_a_404_page(pages: Pages, path: str) -> None:
    answer = pages.client().get(path)
    assert answer.status_code == 404 and "problem" in answer.text


def test_a_checkpoint_is_shown_by_its_name_with_its_metadata_as_text(
    pages: Pages, embedder: OnnxMiniLM
) -> None:
    app = build_app(pages.settings, embedder=embedder)
    metadata = {"name": "before the café refactor", "owner": "Tom & Jerry's"}
    named = app.checkpoints.save({"goal": "refactor"}, "named-session", metadata).checkpoint_id
    app.close()
    client = pages.client()
    timeline = client.get("/ui/checkpoints/named-session").text
    assert '<strong class="name">before the café refactor</strong>' in timeline
    assert "1 checkpoint<" in timeline  # not "1 checkpoints"
    page = client.get(f"/ui/checkpoint/{named}").text
    assert "<h1>before the café refactor" in page
    shown = page.split('id="checkpoint-metadata">')[1].split("</pre>")[0]
    assert "Tom &amp; Jerry&#39;s" in shown and "\\u" not in shown


def test_a_character_renamed_with_a_slash_opens_again(story: TestClient) -> None:
    page = story.get("/ui/story/harbour/who/Tobias%20Reed").text
    form = {"form_token": form_token(page), "action": "rename", "name": "Tobias Reed"}
    form["other"] = "AC/DC"
    answer = story.post("/ui/story/harbour/correct", data=form, headers={"Origin": ORIGIN})
    assert answer.status_code == 303 and answer.headers["location"].endswith("/who/AC%2FDC")
    renamed = story.get(answer.headers["location"])
    assert renamed.status_code == 200 and "Corrected (rename)." in renamed.text
    cast = story.get("/ui/story/harbour").text.split('id="cast"')[1]
    link = re.search(r'href="([^"]+)">AC/DC</a>', cast)
    assert link is not None and story.get(link.group(1)).status_code == 200


def test_appears_with_gives_names_and_counts(story: TestClient) -> None:
    page = story.get("/ui/story/harbour/who/Tobias%20Reed").text
    shown = page.split("<dt>appears with</dt>")[1].split("</dd>")[0]
    assert "appears_with" not in shown
    assert re.search(r">Pim</a> <span class=\"count\">\d+ times?</span>", shown)


def test_a_suggestion_is_accepted_and_undone_from_the_story_page(pages: Pages) -> None:
    app = build_app(pages.settings, embedder=pages.embedder)
    voyage = [
        "Captain Hawkes stood at the rail. Captain Hawkes said nothing to anyone.",
        "The Captain watched the storm, and Nell Quarry brought him tea.",
        "Nell Quarry laughed at the Captain's hat. The Captain did not laugh.",
        "At dawn the Captain sent the boy aloft, and Captain Hawkes was pleased.",
    ]
    for number, text in enumerate(voyage * 3):
        app.story.continue_story("voyage", "", f"{text} ({number})")
    app.close()
    client = pages.client()
    page = client.get("/ui/story/voyage").text
    shown = page.split('id="suggestions"')[1]
    assert "“the Captain” is another name of Captain Hawkes" in shown
    form = {
        "form_token": form_token(page),
        "action": "alias",
        "name": "Captain Hawkes",
        "other": "the Captain",
    }
    accepted = client.post("/ui/story/voyage/correct", data=form, headers={"Origin": ORIGIN})
    assert accepted.status_code == 303
    after = client.get("/ui/story/voyage").text
    listed = after.split('id="suggestions"')[1] if 'id="suggestions"' in after else ""
    assert "“the Captain”" not in listed.split('id="corrections"')[0]
    assert "#1: &#39;the Captain&#39; added" in after.split('id="corrections"')[1]
    undo = {"form_token": form_token(after), "number": "1"}
    undone = client.post("/ui/story/voyage/undo", data=undo, headers={"Origin": ORIGIN})
    assert undone.status_code == 303
    back = client.get(undone.headers["location"]).text
    assert "Undone: #1: &#39;the Captain&#39; added" in back
    offered = back.split('id="suggestions"')[1]
    assert "“the Captain” is another name of" in offered
    # Declined with the button beside it: the names kept apart, not offered again.
    decline = offered.split("Decline")[0].rsplit("<form", 1)[1]
    assert 'name="action" value="apart"' in decline
    form = {**form, "form_token": form_token(back), "action": "apart"}
    declined = client.post("/ui/story/voyage/correct", data=form, headers={"Origin": ORIGIN})
    assert declined.status_code == 303
    last = client.get("/ui/story/voyage").text
    assert "“the Captain”" not in last.split('id="corrections"')[0]
    assert "&#39;the Captain&#39; kept apart from" in last.split('id="corrections"')[1]


def test_a_character_the_cast_missed_is_declined_as_none_from_the_story_page(
    pages: Pages,
) -> None:
    app = build_app(pages.settings, embedder=pages.embedder)
    chateau = [
        '"It is nothing," said the Marquis to Gaspard, and Gaspard bowed.',
        "The carriage of the Marquis rolled on through the village.",
        "The Marquis looked out at the fountain; Gaspard stood by it.",
        "Night fell on the chateau of the Marquis.",
    ]
    for number, text in enumerate(chateau * 6):
        app.story.continue_story("chateau", "", f"{text} ({number})")
    app.close()
    client = pages.client()
    page = client.get("/ui/story/chateau").text
    offered = page.split('id="suggestions"')[1]
    assert "Marquis is a character" in offered
    # Declined, "Marquis" is marked as no character (accepting marks it as one).
    decline = offered.split("Decline")[0].rsplit("<form", 1)[1]
    assert 'name="action" value="kind"' in decline and 'name="other" value="other"' in decline
    form = {"form_token": form_token(page), "action": "kind", "name": "Marquis", "other": "other"}
    declined = client.post("/ui/story/chateau/correct", data=form, headers={"Origin": ORIGIN})
    assert declined.status_code == 303
    last = client.get("/ui/story/chateau").text
    assert "Marquis is a character" not in last


def test_a_conflict_is_shown_side_by_side_and_settled_with_one_button(pages: Pages) -> None:
    from loci.toolsets.memory.models import MemoryDraft

    app = build_app(pages.settings, embedder=pages.embedder)
    older = app.facts.remember(
        MemoryDraft("Dana lives in Berlin.", "dana", valid_from="2022-01-01")
    )
    newer = app.facts.remember(
        MemoryDraft("Dana moved to Lisbon.", "dana", valid_from="2023-09-01")
    )
    other = app.facts.remember(MemoryDraft("Dana works at Acme.", "dana", valid_from="2022-01-01"))
    later = app.facts.remember(MemoryDraft("Dana joined Initech.", "dana", valid_from="2024-01-01"))
    assert newer.conflicts and later.conflicts
    app.close()
    client = pages.client()
    page = client.get("/ui/conflicts?namespace=dana").text
    assert page.count('class="conflict"') == 2 and "berlin" in page and "initech" in page.lower()
    form = {"form_token": form_token(page), "older": older.id, "newer": newer.id}
    done = client.post("/ui/conflicts/supersede", data=form, headers={"Origin": ORIGIN})
    assert done.status_code == 303
    page = client.get("/ui/conflicts").text
    assert "Superseded." in page and page.count('class="conflict"') == 1
    form = {"form_token": form_token(page), "older": other.id, "newer": later.id}
    done = client.post("/ui/conflicts/dismiss", data=form, headers={"Origin": ORIGIN})
    assert "No open conflicts" in client.get(done.headers["location"]).text
    shown = client.get(f"/ui/m/{older.id}").text
    assert "until 2023-09-01" in shown and f"/ui/m/{newer.id}" in shown
    assert 'id="history"' in shown and "Lisbon" in shown.split('id="history"')[1]


def test_a_conflict_form_without_its_token_or_with_a_missing_memory_changes_nothing(
    pages: Pages,
) -> None:
    client = pages.client()
    page = client.get("/ui/conflicts").text
    missing = "00000000-0000-4000-8000-000000000000"
    forged = client.post(
        "/ui/conflicts/dismiss",
        data={"older": missing, "newer": missing},
        headers={"Origin": ORIGIN},
    )
    assert forged.status_code in (400, 403)
    unknown = client.post(
        "/ui/conflicts/dismiss",
        data={"form_token": form_token(page), "older": missing, "newer": missing},
        headers={"Origin": ORIGIN},
    )
    assert unknown.status_code == 404

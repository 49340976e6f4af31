"""Importing other apps' chat exports through the app: each conversation a sequence with its
times, found by its words and its dates; importing again adds only what is new; a zip read in
place; clear errors that store nothing; a conversation that cannot be read skipped."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.errors import InvalidInputError
from loci.settings import load_settings
from loci.toolsets.memory.conversations.chat_imports import ChatImportOptions, ImportProgress
from loci.toolsets.memory.conversations.exports.files import uploaded_files

CHATS = Path(__file__).resolve().parent.parent / "fixtures" / "chats"
LISBON = "chatgpt:6601a2b3-0000-4000-8000-000000000001"


def stored(app: App, namespace: str) -> list[tuple[str, str, dict[str, object], str]]:
    """(content, occurred_at, metadata, sequence) of a namespace's memories, in sequence order."""
    with app.db.locked() as conn:
        rows = conn.execute(
            "SELECT m.content, m.occurred_at, m.metadata, s.name FROM memories m "
            "JOIN sequence_items i ON i.seq = m.seq JOIN sequences s ON s.id = i.sequence "
            "WHERE m.namespace = ? ORDER BY s.name, i.position",
            (namespace,),
        ).fetchall()
    return [(row[0], row[1], json.loads(row[2]), row[3]) for row in rows]


def count(app: App) -> int:
    with app.db.locked() as conn:
        return int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])


def test_a_chatgpt_export_becomes_sequences_with_their_times(app: App) -> None:
    report = app.chat_imports.import_path(CHATS / "chatgpt", ChatImportOptions())
    assert (report.conversations, report.messages, report.stored) == (2, 10, 10)
    assert report.namespaces == ["chatgpt"] and report.formats == {"chatgpt": 1}
    assert report.ignored_files == [str(CHATS / "chatgpt" / "user.json")]
    assert [part.where for part in report.skipped] == [
        f"{CHATS / 'chatgpt' / 'conversations.json'}: conversation 3 (Broken)"
    ]
    rows = stored(app, "chatgpt")
    lisbon = [row for row in rows if row[3] == LISBON]
    assert [row[0].split(":")[0] for row in lisbon] == [
        "User", "ChatGPT", "User", "User", "ChatGPT", "Tool", "Tool", "ChatGPT",
    ]  # fmt: skip
    content, occurred, metadata, _ = lisbon[0]
    assert content.startswith("User: My sister Ines is moving to Porto in June.")
    assert occurred == "2024-03-12T10:00:10.000000Z"
    assert metadata["app"] == "chatgpt" and metadata["title"] == "Trip to Lisbon"
    assert metadata["message_id"] == "u1" and metadata["conversation"] == LISBON
    # A message without a time takes the one before it.
    untitled = [row for row in rows if row[3].endswith("000000000002")]
    assert [row[1] for row in untitled] == ["2024-07-01T12:00:00.000000Z"] * 2
    assert "title" not in untitled[0][2]


def test_recall_finds_an_imported_fact_by_its_words_and_its_date(app: App) -> None:
    app.chat_imports.import_path(CHATS / "chatgpt", ChatImportOptions())
    app.chat_imports.import_path(CHATS / "claude", ChatImportOptions(namespace="chatgpt"))
    by_words = app.memory.recall("Where is my sister Ines moving?", limit=3, namespace="chatgpt")
    assert "Ines is moving to Porto" in by_words.memories[0].content
    by_date = app.memory.recall("what did I ask about in March 2024?", limit=3, namespace="chatgpt")
    assert by_date.memories[0].occurred_at.startswith("2024-03")
    in_april = app.memory.recall("what did I plant in April 2024?", limit=3, namespace="chatgpt")
    assert "fig trees" in in_april.memories[0].content


def test_importing_again_adds_only_what_is_new(app: App, tmp_path: Path) -> None:
    export = tmp_path / "export"
    shutil.copytree(CHATS / "chatgpt", export)
    first = app.chat_imports.import_path(export, ChatImportOptions())
    again = app.chat_imports.import_path(export, ChatImportOptions())
    assert again.stored == 0 and again.already_stored == first.stored
    assert again.conversations_unchanged == 2
    # The person went on with the Lisbon chat: a newer export holds one more answer.
    data = json.loads((export / "conversations.json").read_text())
    mapping = data[0]["mapping"]
    mapping["a2"]["children"] = ["a3"]
    mapping["a3"] = {
        "id": "a3",
        "parent": "a2",
        "children": [],
        "message": {
            "id": "a3",
            "author": {"role": "assistant"},
            "create_time": 1712000000.0,
            "content": {"content_type": "text", "parts": ["Tram 28 runs every 12 minutes."]},
            "metadata": {},
            "recipient": "all",
        },
    }
    data[0]["current_node"] = "a3"
    (export / "conversations.json").write_text(json.dumps(data))
    later = app.chat_imports.import_path(export, ChatImportOptions())
    assert (later.stored, later.conversations_continued, later.conversations_unchanged) == (1, 1, 1)
    lisbon = [row for row in stored(app, "chatgpt") if row[3] == LISBON]
    assert lisbon[-1][0] == "ChatGPT: Tram 28 runs every 12 minutes."
    assert count(app) == first.stored + 1


def test_coding_agent_logs_are_stored_once(app: App) -> None:
    report = app.chat_imports.import_path(CHATS / "claude-code", ChatImportOptions())
    # The resumed session replays four messages of the first: stored once.
    assert (report.messages, report.stored, report.already_stored) == (10, 6, 4)
    rows = stored(app, "claude-code")
    assert len(rows) == 6
    assert {row[2]["project"] for row in rows} == {"/home/ana/projects/shop-api"}
    assert any("ran: pytest -q tests/test_checkout.py" in row[0] for row in rows)
    for folder in ("codex", "gemini"):
        assert app.chat_imports.import_path(CHATS / folder, ChatImportOptions()).stored > 0
    assert {row[2]["app"] for row in stored(app, "gemini")} == {"gemini"}


def test_a_zip_as_downloaded_is_read_in_place(app: App, tmp_path: Path) -> None:
    data = json.loads((CHATS / "chatgpt" / "conversations.json").read_text())
    archive = tmp_path / "chatgpt-export.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("conversations-000.json", json.dumps(data[:1]))
        out.writestr("conversations-001.json", json.dumps(data[1:]))
        out.writestr("user.json", "{}")
        out.writestr("chat.html", "<html></html>")
    steps: list[ImportProgress] = []
    report = app.chat_imports.import_path(archive, ChatImportOptions(), steps.append)
    assert (report.formats, report.conversations, report.stored) == ({"chatgpt": 2}, 2, 10)
    assert steps[-1].bytes_done == steps[-1].bytes_total and steps[-1].messages == 10
    assert not list(tmp_path.glob("*.json"))  # nothing unpacked beside it
    # The same bytes uploaded (the web view) import the same, here as nothing new.
    with uploaded_files("export.zip", archive.read_bytes(), 10**9) as files:
        again = app.chat_imports.import_files(files, ChatImportOptions())
    assert again.already_stored == 10


def test_a_dry_run_says_what_would_be_stored_and_stores_nothing(app: App) -> None:
    report = app.chat_imports.import_path(CHATS / "claude", ChatImportOptions(dry_run=True))
    assert report.dry_run and report.stored == 6 and count(app) == 0
    assert [item.title for item in report.listed] == ["Garden plans", None]
    assert report.first == "2023-11-20T18:30:00.000000Z"


def test_one_namespace_and_other_branches_when_asked(app: App) -> None:
    options = ChatImportOptions(namespace="history", all_branches=True)
    report = app.chat_imports.import_path(CHATS / "chatgpt", options)
    assert report.namespaces == ["history"]
    sequences = {row[3] for row in stored(app, "history")}
    assert {f"{LISBON}/branch-2", f"{LISBON}/branch-3", LISBON} <= sequences


@pytest.fixture
def small_app(tmp_path: Path, embedder: OnnxMiniLM) -> Iterator[App]:
    """An App whose memories and export files are small."""
    settings = load_settings(home=tmp_path / "home", max_content_bytes=400, import_max_bytes=4000)
    built = build_app(settings, embedder)
    yield built
    built.close()


def test_a_message_longer_than_a_memory_is_stored_in_parts(small_app: App, tmp_path: Path) -> None:
    words = " ".join(f"word{n}" for n in range(300))
    line = {"type": "user", "sessionId": "s1", "uuid": "u1", "timestamp": "2025-01-02T03:04:05Z",
            "message": {"role": "user", "content": words}}  # fmt: skip
    (tmp_path / "s1.jsonl").write_text(json.dumps(line) + "\n")
    report = small_app.chat_imports.import_path(tmp_path / "s1.jsonl", ChatImportOptions())
    rows = stored(small_app, "claude-code")
    assert report.stored == len(rows) > 1
    assert [row[2]["message_id"] for row in rows][:2] == ["u1", "u1#2"]
    assert " ".join(row[0].removeprefix("User: ") for row in rows) == words


def test_a_file_too_large_for_the_settings_is_named_and_nothing_stored(small_app: App) -> None:
    with pytest.raises(InvalidInputError, match="import_max_bytes") as raised:
        small_app.chat_imports.import_path(CHATS / "chatgpt", ChatImportOptions())
    assert "conversations.json" in raised.value.message
    assert count(small_app) == 0


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("notes.json", '{"title": "my notes"}', "holds no chat export loci reads"),
        ("chat.jsonl", '{"speaker": "Ana", "text": "hi", "timestamp": 1}', "loci import-chat"),
        ("export.zip", None, "not a whole zip file"),
        ("missing.json", "", "does not exist"),
    ],
)
def test_what_is_no_export_is_refused_and_nothing_stored(
    app: App, tmp_path: Path, name: str, content: str | None, problem: str
) -> None:
    path = tmp_path / name
    if content is None:  # a download cut short: the start of a real zip
        whole = io.BytesIO()
        with zipfile.ZipFile(whole, "w") as out:
            out.writestr(
                "conversations.json", (CHATS / "chatgpt" / "conversations.json").read_text()
            )
        path.write_bytes(whole.getvalue()[:2000])
    elif content:
        path.write_text(content)
    with pytest.raises(InvalidInputError, match=problem):
        app.chat_imports.import_path(path, ChatImportOptions())
    assert count(app) == 0


def test_an_export_cut_short_keeps_what_was_read(app: App, tmp_path: Path) -> None:
    text = (CHATS / "claude" / "conversations.json").read_text()
    cut = tmp_path / "conversations.json"
    cut.write_text(text[: text.index('"uuid": "c1a0de00-0000-4000-8000-000000000002"') + 20])
    report = app.chat_imports.import_path(cut, ChatImportOptions())
    assert report.conversations == 1 and report.stored == 4
    assert "stops being JSON after its first 1 entries" in report.skipped[0].reason


@pytest.mark.parametrize(
    "options",
    [ChatImportOptions(format="slack"), ChatImportOptions(namespace="../up")],
)
def test_bad_options_are_refused(app: App, options: ChatImportOptions) -> None:
    with pytest.raises(InvalidInputError):
        app.chat_imports.import_path(CHATS / "chatgpt", options)
    assert count(app) == 0


def test_a_named_format_skips_files_of_another_app(app: App, tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"holds no ChatGPT export but one of Claude\.ai"):
        app.chat_imports.import_path(CHATS / "claude", ChatImportOptions(format="chatgpt"))
    both = tmp_path / "both"
    shutil.copytree(CHATS / "claude", both / "claude")
    shutil.copytree(CHATS / "codex", both / "codex")
    report = app.chat_imports.import_path(both, ChatImportOptions(format="codex"))
    assert report.formats == {"codex": 2} and count(app) == 4
    assert any("is a Claude.ai file, not Codex CLI" in notice for notice in report.notices)


def test_a_named_format_reads_only_the_files_that_show_it(app: App, tmp_path: Path) -> None:
    logs = tmp_path / ".claude"
    shutil.copytree(CHATS / "claude-code", logs / "projects")
    (logs / "settings.json").write_text('{"model": "opus"}')
    opened = logs / "projects" / "-home-ana-notes" / "resumed.jsonl"
    opened.parent.mkdir()
    summaries = [
        {"type": "summary", "summary": f"Earlier {n}", "leafUuid": f"x{n}"} for n in range(60)
    ]
    message = {"role": "user", "content": "Notes go in notes.md."}
    said = {"type": "user", "sessionId": "s9", "uuid": "n1", "timestamp": "2025-07-01T10:00:00Z",
            "cwd": "/home/ana/notes", "message": message}  # fmt: skip
    opened.write_text("\n".join(json.dumps(line) for line in [*summaries, said]) + "\n")
    report = app.chat_imports.import_path(logs, ChatImportOptions(format="claude-code"))
    assert report.formats == {"claude-code": 3} and report.stored == 7
    assert report.ignored_files == [str(logs / "settings.json")]


def test_a_folder_of_many_logs_leaves_no_file_open(app: App, tmp_path: Path) -> None:
    line = {"type": "user", "sessionId": "s", "uuid": "u", "timestamp": "2025-01-01T00:00:00Z"}
    for number in range(60):
        said = {"role": "user", "content": f"Note {number}."}
        session = {**line, "sessionId": f"s{number}", "uuid": f"u{number}", "message": said}
        (tmp_path / f"s{number}.jsonl").write_text(json.dumps(session) + "\n")
    (tmp_path / "broken.jsonl").write_text("not json at all\n")
    before = len(list(Path("/proc/self/fd").iterdir()))
    report = app.chat_imports.import_path(tmp_path, ChatImportOptions(dry_run=True))
    assert report.conversations == 60
    assert len(list(Path("/proc/self/fd").iterdir())) < before + 10


def test_an_export_whose_first_entries_are_projects_is_still_read(app: App, tmp_path: Path) -> None:
    data = json.loads((CHATS / "chatgpt" / "conversations.json").read_text())
    projects = [{"id": f"g-p-{n}", "title": f"Project {n}"} for n in range(3)]
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("conversations-000.json", json.dumps([*projects, *data]))
        out.writestr("conversations-001.json", json.dumps([projects[0], data[1]]))
        out.writestr("message_feedback.json", "[]")
        out.writestr("shared_conversations.json", "[]")
    report = app.chat_imports.import_path(archive, ChatImportOptions())
    assert report.formats == {"chatgpt": 2} and report.stored == 10
    assert report.ignored_files == [
        "export.zip:message_feedback.json", "export.zip:shared_conversations.json",
    ]  # fmt: skip
    # Named, files named as the app names them are read even when they show nothing yet.
    only_projects = tmp_path / "projects.zip"
    with zipfile.ZipFile(only_projects, "w") as out:
        out.writestr("conversations-000.json", json.dumps(projects * 5))
    with pytest.raises(InvalidInputError, match="holds no chat export"):
        app.chat_imports.import_path(only_projects, ChatImportOptions(format="chatgpt"))


def test_a_named_format_does_not_make_any_json_a_conversation(app: App, tmp_path: Path) -> None:
    other = tmp_path / "settings.json"
    other.write_text('[{"theme": "dark"}]')
    with pytest.raises(InvalidInputError, match="holds no chat export"):
        app.chat_imports.import_path(other, ChatImportOptions(format="chatgpt"))


def test_empty_conversations_are_left_out_and_dates_are_those_stored(
    app: App, tmp_path: Path
) -> None:
    data = json.loads((CHATS / "claude" / "conversations.json").read_text())
    empty = {"uuid": "c1a0de00-0000-4000-8000-0000000000ee", "name": "Nothing said",
             "created_at": "2024-05-01T00:00:00Z", "chat_messages": []}  # fmt: skip
    (tmp_path / "conversations.json").write_text(json.dumps([*data, empty]))
    report = app.chat_imports.import_path(tmp_path, ChatImportOptions())
    assert report.left_out["empty conversations"] == 1 and not report.skipped
    assert (report.first, report.last) == (
        "2023-11-20T18:30:00.000000Z",
        "2024-04-02T08:01:10.000000Z",
    )
    assert [item.opening for item in report.listed][1] == "What rhymes with orange?"
    data[1]["messages"].append(
        {
            "uuid": "o3",
            "sender": "human",
            "text": "And silver?",
            "created_at": "2024-06-01T10:00:00Z",
        }
    )
    (tmp_path / "conversations.json").write_text(json.dumps(data))
    later = app.chat_imports.import_path(tmp_path, ChatImportOptions())
    assert later.stored == 1 and later.first == later.last == "2024-06-01T10:00:00.000000Z"

"""Reading other apps' chat exports (the fixtures in tests/fixtures/chats, written from each
format's documented shape): which messages are the conversation, in which order, with what
text and time; what is left out, and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loci.toolsets.memory.conversations.chat_imports import READERS
from loci.toolsets.memory.conversations.exports.detect import format_of
from loci.toolsets.memory.conversations.exports.documents import open_records
from loci.toolsets.memory.conversations.exports.files import ExportFile, export_files
from loci.toolsets.memory.conversations.exports.records import Conversation, Skipped, Tally
from loci.toolsets.memory.conversations.exports.shaping import parts, trimmed
from loci.toolsets.memory.conversations.exports.tools_used import tool_line

CHATS = Path(__file__).resolve().parent.parent / "fixtures" / "chats"


def read(path: Path, all_branches: bool = False) -> tuple[list[Conversation], list[Skipped], Tally]:
    """Every conversation of the export at `path`, as the importer reads it."""
    tally, found, skipped = Tally(), [], []
    with export_files(path, 10**9) as files:
        for file in files:
            records = open_records(file, tally)
            chosen = format_of(records)
            if chosen is None:
                continue
            for item in READERS[chosen](records.items, tally, all_branches):
                (skipped if isinstance(item, Skipped) else found).append(item)
    return found, skipped, tally


def said(conversation: Conversation) -> list[tuple[str, str]]:
    return [(turn.role, turn.text) for turn in conversation.turns]


def test_chatgpt_keeps_the_thread_that_ends_at_current_node() -> None:
    found, skipped, tally = read(CHATS / "chatgpt")
    lisbon = found[0]
    assert lisbon.title == "Trip to Lisbon"
    assert [t.message_id for t in lisbon.turns] == [
        "u1", "a1b", "u2b", "img", "code", "out", "quote", "a2",
    ]  # fmt: skip
    texts = {t.message_id: t.text for t in lisbon.turns}
    assert "zoo" not in " ".join(texts.values())  # the regenerated answer is another branch
    assert "First draft" not in " ".join(texts.values())  # so is the edited prompt
    assert texts["img"] == "[image]\nHere is a photo of the ticket machine."
    assert texts["code"] == "(to python) code (python):\nprint(3.10 * 2)"
    assert texts["out"] == "6.2"
    assert texts["quote"].startswith("quoted Carris fares <https://www.carris.pt/en/fares>:")
    roles = {t.message_id: t.role for t in lisbon.turns}
    assert roles["u1"] == "user" and roles["a2"] == "assistant" and roles["out"] == "tool"
    assert roles["code"] == "assistant"  # the code ChatGPT wrote is ChatGPT's
    assert lisbon.turns[0].time is not None and lisbon.turns[0].time.isoformat().startswith(
        "2024-03-12T10:00:10"
    )
    # The system prompt, the profile, thoughts and browsing are not the conversation.
    assert tally.left_out["system messages, profile and custom instructions"] == 2
    assert tally.left_out["thinking and browsing notes"] == 3
    assert tally.left_out["entries without a conversation (folders, projects)"] == 1
    # A null title and no create_time: the earliest message's time; the rest goes on.
    untitled = found[1]
    assert untitled.title is None and untitled.created is not None
    assert untitled.created.isoformat().startswith("2024-07-01T12:00")
    assert untitled.turns[1].time is None  # filled from the message before it when stored
    assert [s.where for s in skipped] == ["conversation 3 (Broken)"]


def test_chatgpt_other_branches_only_when_asked() -> None:
    found, _, _ = read(CHATS / "chatgpt", all_branches=True)
    lisbon = [c for c in found if c.title == "Trip to Lisbon"]
    assert [c.branch for c in lisbon] == [1, 2, 3]
    # Each branch holds what differs from the kept thread: the old answer, the first draft.
    assert said(lisbon[1]) == [("assistant", "Old answer that was regenerated: go to the zoo.")]
    assert said(lisbon[2]) == [("user", "First draft of my question about tram 28 fares")]


def test_chatgpt_without_current_node_follows_the_latest_leaf(tmp_path: Path) -> None:
    data = json.loads((CHATS / "chatgpt" / "conversations.json").read_text())
    del data[0]["current_node"]
    (tmp_path / "conversations.json").write_text(json.dumps(data[:1]))
    found, _, _ = read(tmp_path)
    assert found[0].turns[-1].message_id == "a2"


def test_claude_keeps_the_branch_ending_at_the_current_leaf() -> None:
    found, skipped, tally = read(CHATS / "claude")
    garden, older = found
    assert not skipped
    assert [t.message_id for t in garden.turns] == ["m1", "m2b", "m3", "m4"]
    first = garden.turns[0].text
    assert first.startswith("I planted three fig trees by the south wall.")
    assert "[attachment soil-report.txt]\nSoil pH 6.8, loam, well drained." in first
    assert "[file wall-photo.jpg]" in first
    # Blocks hold the words while the flat text is empty; the tool call is one line.
    answer = garden.turns[1].text
    assert answer.startswith("Fig trees on a south wall ripen early")
    assert "searched the web for: fig tree watering" in answer
    assert "\n  -> Water figs deeply once a week." in answer
    # An empty name is no title; an older export's `messages` read as one thread.
    assert older.title is None
    assert said(older)[0] == ("user", "What rhymes with orange?")
    found, _, tally = read(CHATS / "claude", all_branches=True)
    retried = [c for c in found if c.branch == 2]
    # A block with null text: the flat text holds the words; thinking is left out.
    assert said(retried[0]) == [("assistant", "Figs like a warm wall (the first answer, retried).")]
    assert tally.left_out["thinking"] >= 1


def test_claude_code_keeps_what_was_said() -> None:
    found, skipped, tally = read(CHATS / "claude-code")
    first, resumed = found
    assert not skipped
    assert first.title == "Fix the failing checkout tests"
    assert first.project == "/home/ana/projects/shop-api"
    assert [t.message_id for t in first.turns] == ["u-3", "msg_01", "msg_02", "u-9"]
    ask, run, edit, deadline = (t.text for t in first.turns)
    assert ask == "The checkout tests fail since we moved to Stripe. Can you fix them?"
    # One streamed answer over three lines is one message: text, then its tool call and output.
    assert run.startswith("I'll run the tests first.\nran: pytest -q tests/test_checkout.py\n")
    assert "  -> 2 failed, 14 passed: test_refund_amount expects cents" in run
    assert run.endswith("more characters]")  # the output is trimmed
    assert edit.startswith("edited: /home/ana/projects/shop-api/shop/refunds.py\n")
    assert deadline == "Great, the deploy window is Friday 18:00 at the latest."
    assert tally.left_out["sub-agent lines (isSidechain)"] == 2
    assert tally.left_out["meta lines (isMeta)"] == 1
    assert tally.left_out["injected text (reminders, commands, interruptions)"] == 2
    assert any("last line is cut short" in notice for notice in tally.notices)
    # The resumed session replays the first one's lines (same ids): the importer stores
    # them once, by id.
    assert [t.message_id for t in resumed.turns][:4] == ["u-3", "msg_01", "msg_02", "u-9"]
    assert resumed.turns[-1].text == "Added test_partial_refund; all 15 checkout tests pass."


def test_codex_reads_the_event_messages_only() -> None:
    found, _, tally = read(CHATS / "codex")
    by_id = {c.app_id: c for c in found}
    session = by_id["0199a1b2-c3d4-7e5f-8a9b-000000000c0d"]
    assert session.project == "/home/ana/projects/blog"
    assert said(session) == [
        ("user", "Move the blog's RSS feed to /feed.xml"),
        ("assistant", "The feed now lives at /feed.xml; the old /rss path redirects there."),
    ]
    assert tally.left_out["thinking"] == 1
    again, _, _ = read(CHATS / "codex")
    assert [t.message_id for t in again[1].turns] == [t.message_id for t in found[1].turns]


def test_codex_rollouts_from_before_session_meta_are_read() -> None:
    found, _, tally = read(CHATS / "codex")
    older = next(c for c in found if c.app_id == "5b1c0e7a-0000-4000-8000-00000000c0de")
    assert said(older) == [
        ("user", "Why does the build fail on the CI runner?"),
        ("assistant", "The runner has no Node: add actions/setup-node before the build step."),
    ]
    assert older.created is not None and older.created.isoformat().startswith("2025-05-20T08:30")
    assert tally.left_out["context Codex injected"] == 1


def test_gemini_reads_json_sessions_and_jsonl_lines() -> None:
    found, _, tally = read(CHATS / "gemini")
    by_id = {c.app_id: c for c in found}
    assert len(by_id) == 2
    old = by_id["a1b2c3d4-0000-4000-8000-000000000e01"]
    assert said(old) == [
        ("user", "Which port does the staging database listen on?"),
        ("assistant", "Staging Postgres listens on port 6543.\nread: /srv/staging/db.env"),
    ]
    new = by_id["a1b2c3d4-0000-4000-8000-000000000e02"]
    # The last line of a message id holds its words; message_update lines only count tokens.
    assert said(new) == [
        ("user", "Rename the cron job to nightly-backup."),
        ("assistant", "Renamed the cron job to nightly-backup in crontab.yaml."),
    ]
    assert tally.left_out["notes that are not messages (info, errors)"] == 1


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("a.json", "[]", None),
        ("a.json", '{"hello": 1}', None),
        ("a.jsonl", '{"speaker": "Ana", "text": "hi", "timestamp": 1}', None),
        ("a.json", '[{"mapping": {}, "id": "x"}]', "chatgpt"),
        ("a.json", '[{"uuid": "x", "chat_messages": []}]', "claude"),
        ("a.json", '{"sessionId": "s", "messages": []}', "gemini"),
        ("a.jsonl", '{"type": "session_meta", "payload": {"id": "s"}}', "codex"),
        (
            "a.jsonl",
            '{"id": "s", "timestamp": "2025-05-20"}\n{"type": "message", "role": "user"}',
            "codex",
        ),
        ("a.jsonl", '{"type": "session_metadata", "sessionId": "s"}', "gemini"),
        ("a.jsonl", '{"type": "user", "sessionId": "s", "message": {}}', "claude-code"),
    ],
)
def test_the_format_is_told_from_the_content(name: str, text: str, expected: str | None) -> None:
    records = open_records(ExportFile.of_text(name, text), Tally())
    assert format_of(records) == expected


def test_tool_calls_are_one_short_line() -> None:
    assert tool_line("Bash", {"command": "pytest -q"}) == "ran: pytest -q"
    assert tool_line("shell", '{"command": ["bash", "-lc", "ls"]}') == "ran: bash -lc ls"
    assert tool_line("Read", {"file_path": "/a/b.py"}) == "read: /a/b.py"
    assert tool_line("Frobnicate", {"level": 3}) == 'used Frobnicate: {"level": 3}'
    assert tool_line("TodoWrite", None) == "used TodoWrite"
    assert len(tool_line("Bash", {"command": "x" * 5000})) < 260


def test_long_text_is_cut_into_parts_that_fit() -> None:
    text = "\n\n".join(f"Paragraph {n}. " + "word " * 60 for n in range(40))
    pieces = parts(text, 1000)
    assert all(len(p.encode()) <= 1000 for p in pieces)
    assert " ".join(" ".join(pieces).split()) == " ".join(text.split())  # nothing lost
    assert all(p.startswith("Paragraph") for p in pieces)  # cut at paragraph ends
    wide = "é" * 3000  # two bytes each, no place to cut but anywhere
    assert "".join(parts(wide, 1001)) == wide
    assert trimmed("abc" * 10, 5) == "abcab [... 25 more characters]"

"""Chat histories into memory: parsing, clear errors that store nothing, dedupe, neighbours."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loci.app import App
from loci.conversations.messages import parse_messages, read_chat_file
from loci.errors import InvalidInputError

CHAT = [
    {
        "speaker": "Ana",
        "text": "Are you coming to the climbing gym on Friday?",
        "timestamp": "2024-03-01T18:00:00Z",
        "session_id": "s1",
        "message_id": "m1",
    },
    {
        "speaker": "Ben",
        "text": "I can't, my knee still hurts from the fall.",
        "timestamp": "2024-03-01T18:01:00Z",
        "session_id": "s1",
        "message_id": "m2",
    },
    {
        "speaker": "Ana",
        "text": "Oh no. Did a doctor look at it?",
        "timestamp": "2024-03-01T18:02:00Z",
        "session_id": "s1",
        "message_id": "m3",
    },
    {
        "speaker": "Ben",
        "text": "Yes, Dr. Okafor said six weeks of rest.",
        "timestamp": "2024-03-01T18:03:00Z",
        "session_id": "s1",
        "message_id": "m4",
    },
    {
        "speaker": "Ana",
        "text": "I started learning the cello last month.",
        "timestamp": "2024-04-02T09:00:00Z",
        "session_id": "s2",
        "message_id": "m5",
    },
    {
        "speaker": "Ben",
        "text": "That is wonderful, which piece are you practising?",
        "timestamp": "2024-04-02T09:05:00Z",
        "session_id": "s2",
        "message_id": "m6",
    },
]


def test_parse_accepts_aliases_and_unix_seconds() -> None:
    messages = parse_messages({"messages": [{"role": "user", "content": " hi ", "timestamp": 0}]})
    assert messages[0].speaker == "user" and messages[0].text == "hi"
    assert messages[0].timestamp == "1970-01-01T00:00:00.000000Z"


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        ([], "no messages"),
        ("not a list", "JSON list"),
        ([CHAT[0], "text"], "message 1: message must be a JSON object"),
        ([{"text": "x", "timestamp": "2024-01-01"}], "message 0: speaker is missing"),
        ([{"speaker": "a", "timestamp": "2024-01-01"}], "message 0: text is missing"),
        ([{"speaker": "a", "text": "x"}], "message 0: timestamp is missing"),
        (
            [{"speaker": "a", "text": "x", "timestamp": "yesterday"}],
            "timestamp must be an ISO 8601",
        ),
        ([{"speaker": "a", "text": "x", "timestamp": True}], "timestamp must be"),
        (
            [{"speaker": 3, "text": "x", "timestamp": "2024-01-01"}],
            "speaker must be a non-empty string",
        ),
        (
            [{"speaker": "a", "text": "  ", "timestamp": "2024-01-01"}],
            "text must be a non-empty string",
        ),
        (
            [{"speaker": "a", "text": "x", "timestamp": "2024-01-01", "session_id": ["s"]}],
            "session_id must be",
        ),
        ([{"speaker": "a" * 200, "text": "x", "timestamp": "2024-01-01"}], "at most 128"),
    ],
)
def test_malformed_messages_name_the_record(records: object, expected: str) -> None:
    with pytest.raises(InvalidInputError, match=expected):
        parse_messages(records)


def test_reads_json_and_jsonl_files(tmp_path: Path) -> None:
    as_json = tmp_path / "chat.json"
    as_json.write_text(json.dumps(CHAT), encoding="utf-8")
    as_jsonl = tmp_path / "chat.jsonl"
    as_jsonl.write_text("\n".join(json.dumps(m) for m in CHAT) + "\n\n", encoding="utf-8")
    assert read_chat_file(as_json) == read_chat_file(as_jsonl)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(CHAT[0]) + "\n{oops\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match="line 2"):
        read_chat_file(broken)
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("[1,", encoding="utf-8")
    with pytest.raises(InvalidInputError, match="not valid JSON"):
        read_chat_file(bad_json)


def test_stores_messages_with_metadata_and_skips_known_ids(app: App) -> None:
    result = app.conversations.remember_conversation(parse_messages(CHAT), "chat", "friends")
    assert (result.stored, result.skipped_existing, result.sessions) == (6, 0, 2)
    memory = app.memory.get(result.ids[3])
    assert memory.content == "Ben: Yes, Dr. Okafor said six weeks of rest."
    assert memory.source == "conversation"
    assert memory.metadata == {
        "conversation": "friends",
        "speaker": "Ben",
        "timestamp": "2024-03-01T18:03:00.000000Z",
        "position": 3,
        "session_id": "s1",
        "message_id": "m4",
    }
    again = app.conversations.remember_conversation(parse_messages(CHAT), "chat", "friends")
    assert (again.stored, again.skipped_existing) == (0, 6)
    assert app.catalog.stats().total_memories == 6


def test_a_bad_message_stores_nothing(app: App) -> None:
    records = [*CHAT[:3], {"speaker": "Ana", "text": "x" * (70 * 1024), "timestamp": "2024-03-01"}]
    with pytest.raises(InvalidInputError, match="item 3"):
        app.conversations.remember_conversation(parse_messages(records), "chat")
    with pytest.raises(InvalidInputError, match="conversation_id"):
        app.conversations.remember_conversation(parse_messages(CHAT), "chat", "../etc")
    assert app.catalog.stats().total_memories == 0


def test_recall_brings_the_answer_next_to_the_matching_question(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(CHAT), "chat", "friends")
    found = app.memory.recall(
        "what did the doctor say about Ben's knee?", limit=3, namespace="chat"
    )
    ids = [hit.metadata["message_id"] for hit in found.memories]
    assert "m4" in ids and "m3" in ids
    assert "m5" not in ids and "m6" not in ids


def test_thread_prior_lifts_turns_of_the_session_that_matches() -> None:
    from loci.memory.ranking import with_thread_prior

    scores = {1: 0.9, 2: 0.9, 3: 0.7, 10: 0.72, 20: 0.75}
    thread_of = {1: "s1", 2: "s1", 3: "s1", 10: "s2"}  # 20 is not a conversation turn
    lifted = with_thread_prior(scores, thread_of, 0.4)
    assert lifted[3] > lifted[10]  # a weaker turn of the strong session overtakes a stray one
    assert lifted[1] == pytest.approx(0.9 + 0.4 * (0.9 + 0.9 + 0.7) / 3)
    assert lifted[20] == pytest.approx(0.75 * 1.4)  # a memory is a thread of its own


def test_thread_prior_without_conversations_keeps_the_same_scores() -> None:
    from loci.memory.ranking import with_thread_prior

    scores = {1: 0.9, 2: 0.5}
    assert with_thread_prior(scores, {}, 0.4) == pytest.approx(
        with_thread_prior(scores, {3: "unrelated"}, 0.4)
    )

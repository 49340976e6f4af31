"""Chat histories into memory: parsing, clear errors that store nothing, dedupe, neighbours."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.errors import InvalidInputError
from loci.settings import load_settings
from loci.timeutil import format_time, parse_time
from loci.toolsets.memory.conversations.messages import parse_messages, read_chat_file

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


def test_timestamps_before_the_year_1000_keep_four_digit_years() -> None:
    # Stored times compare as text: "999-..." would sort after "1970-..." and not parse.
    messages = parse_messages(
        [{"speaker": "a", "text": "x", "timestamp": "0999-03-04T05:06:07+01:00"}]
    )
    assert messages[0].timestamp == "0999-03-04T04:06:07.000000Z"
    assert format_time(parse_time(messages[0].timestamp)) == messages[0].timestamp


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
        ([{"messages": [{"speaker": "a"}]}], "message 0: message is a whole conversation"),
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
        "session_id": "s1",
        "message_id": "m4",
    }
    assert memory.occurred_at == "2024-03-01T18:03:00.000000Z"
    assert memory.sequence is not None
    assert memory.sequence.model_dump() == {
        "name": "friends/s1",
        "kind": "conversation",
        "position": 3.0,
        "actor": "Ben",
    }
    again = app.conversations.remember_conversation(parse_messages(CHAT), "chat", "friends")
    assert (again.stored, again.skipped_existing) == (0, 6)
    assert app.catalog.stats().total_memories == 6
    unnamed = app.conversations.remember_conversation(parse_messages(CHAT), "chat")
    assert (unnamed.stored, unnamed.skipped_existing) == (0, 6)


def test_message_ids_are_only_unique_within_a_conversation(app: App) -> None:
    first = app.conversations.remember_conversation(parse_messages(CHAT), "chat", "friends")
    other = [{**record, "text": record["text"] + " (again)"} for record in CHAT]
    second = app.conversations.remember_conversation(parse_messages(other), "chat", "family")
    assert (first.stored, second.stored, second.skipped_existing) == (6, 6, 0)
    assert app.catalog.stats().total_memories == 12


def test_messages_without_ids_are_recognised_when_imported_again(app: App) -> None:
    """A history with no message ids, imported again as it grew, adds only the new messages;
    a message said twice in the same second is kept twice."""
    plain = [{k: v for k, v in record.items() if k != "message_id"} for record in CHAT]
    twice = {**plain[1], "text": "ok"}
    history = [*plain[:2], twice, twice, plain[2]]
    first = app.conversations.remember_conversation(parse_messages(history), "chat")
    assert (first.stored, first.skipped_existing) == (5, 0)
    again = app.conversations.remember_conversation(parse_messages(history), "chat")
    assert (again.stored, again.skipped_existing) == (0, 5)
    grown = [*history[:4], twice, *history[4:], *plain[3:]]  # a third "ok", and three more
    more = app.conversations.remember_conversation(parse_messages(grown), "chat")
    assert (more.stored, more.skipped_existing) == (4, 5)
    contents = [memory.content for memory in app.transfer.export("chat").export.memories]
    assert contents.count("Ben: ok") == 3 and len(contents) == 9
    # Another time, session or speaker is another message.
    moved = [{**plain[0], "timestamp": "2024-03-02T18:00:00Z"}, {**plain[0], "session_id": "s9"},
             {**plain[0], "speaker": "Cy"}]  # fmt: skip
    assert app.conversations.remember_conversation(parse_messages(moved), "chat").stored == 3
    # With a conversation id, only that conversation's messages count.
    elsewhere = app.conversations.remember_conversation(parse_messages(plain), "chat", "other")
    assert (elsewhere.stored, elsewhere.skipped_existing) == (6, 0)


def test_long_imports_embed_in_windows_and_store_in_order(
    home: Path, embedder: OnnxMiniLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    from loci.toolsets.memory import service

    # 12 messages: embedded in windows of 5, 5 and 2, stored 2 at a time.
    monkeypatch.setattr(service, "EMBED_WINDOW", 5)
    app = build_app(load_settings(home=home, max_batch_size=2), embedder=embedder)
    try:
        topics = ["tulips", "kites", "violins", "glaciers", "sourdough", "chess", "comets",
                  "lanterns", "otters", "pottery", "sailing", "beekeeping"]  # fmt: skip
        messages = [
            {
                "speaker": "Ana",
                "text": f"Today I learned about {topic}.",
                "timestamp": 1_700_000_000 + i,
            }
            for i, topic in enumerate(topics)
        ]
        reported: list[tuple[int, int]] = []
        result = app.conversations.remember_conversation(
            parse_messages(messages),
            "chat",
            "long",
            lambda done, total: reported.append((done, total)),
        )
        assert result.stored == 12
        assert reported == [(n, 12) for n in (2, 4, 5, 7, 9, 10, 12)]
        with app.db.locked() as conn:
            stored = conn.execute(
                "SELECT m.content, i.position FROM memories m "
                "JOIN sequence_items i ON i.seq = m.seq ORDER BY m.seq"
            ).fetchall()
        assert [position for _, position in stored] == list(range(12))
        for topic in topics:  # each memory kept its own vector
            found = app.memory.recall(f"learned about {topic}", limit=1, hybrid_alpha=1.0)
            assert found.memories[0].content == f"Ana: Today I learned about {topic}."
    finally:
        app.close()


def test_a_bad_message_stores_nothing(app: App) -> None:
    records = [*CHAT[:3], {"speaker": "Ana", "text": "x" * (70 * 1024), "timestamp": "2024-03-01"}]
    with pytest.raises(InvalidInputError, match="item 3"):
        app.conversations.remember_conversation(parse_messages(records), "chat")
    for bad_id in ("../etc", "chat-1\n"):
        with pytest.raises(InvalidInputError, match="conversation_id"):
            app.conversations.remember_conversation(parse_messages(CHAT), "chat", bad_id)
    assert app.catalog.stats().total_memories == 0


def test_recall_brings_the_answer_next_to_the_matching_question(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(CHAT), "chat", "friends")
    found = app.memory.recall(
        "what did the doctor say about Ben's knee?", limit=3, namespace="chat"
    )
    ids = [hit.metadata["message_id"] for hit in found.memories]
    assert "m4" in ids and "m3" in ids
    assert "m5" not in ids and "m6" not in ids


MEALS = [
    ("2024-03-10T19:00:00Z", "Ana", "I cooked a big pot of lentil soup tonight."),
    ("2024-03-10T19:01:00Z", "Ben", "Sounds warming, enjoy it."),
    ("2024-05-12T19:00:00Z", "Ana", "I cooked a mushroom risotto for dinner tonight."),
    ("2024-05-12T19:01:00Z", "Ben", "Nice, risotto takes patience."),
    ("2024-07-02T19:00:00Z", "Ana", "I cooked grilled fish with lemon tonight."),
    ("2024-07-02T19:01:00Z", "Ben", "Summer food at last."),
]


def meal_chat() -> list[dict[str, str]]:
    return [
        {"speaker": who, "text": text, "timestamp": stamp, "session_id": stamp[:10]}
        for stamp, who, text in MEALS
    ]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What did Ana cook in May 2024?", "mushroom risotto"),
        ("What did Ana cook on 2 July, 2024?", "grilled fish"),
        ("What did Ana cook in March?", "lentil soup"),
    ],
)
def test_recall_favours_the_period_a_question_names(app: App, query: str, expected: str) -> None:
    app.conversations.remember_conversation(parse_messages(meal_chat()), "meals", "meals")
    found = app.memory.recall(query, limit=1, namespace="meals")
    assert expected in found.memories[0].content


def test_a_dated_question_finds_memories_outside_the_first_candidates(app: App) -> None:
    # 120 near-identical notes crowd out the candidate lists; the one from the named day
    # still comes first, because the memories of that period are searched as well. (Batch
    # numbers start at 100: a "batch 9" would match the question's "9" as a keyword.)
    notes = [
        {
            "speaker": "Ana",
            "text": f"I cooked pasta again, batch {n + 100}.",
            "timestamp": f"2024-01-01T10:{n % 60:02d}:00Z",
            "session_id": f"s{n}",
        }
        for n in range(120)
    ]
    dated = {
        "speaker": "Ana",
        "text": "I cooked something new.",
        "timestamp": "2024-09-09T10:00:00Z",
        "session_id": "late",
    }
    app.conversations.remember_conversation(parse_messages([*notes, dated]), "meals", "meals")
    found = app.memory.recall("what did Ana cook on 9 September 2024?", limit=3, namespace="meals")
    assert found.memories[0].content == "Ana: I cooked something new."


def test_the_period_lookup_uses_the_time_index(app: App) -> None:
    from loci.storage.memory_tables import timeline

    clause, params = timeline.within_clause(
        [(datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 2, 1, tzinfo=UTC))]
    )
    with app.db.locked() as conn:
        plan = conn.execute(
            f"EXPLAIN QUERY PLAN SELECT m.seq FROM memories m WHERE {clause}", params
        ).fetchall()
        assert "memories_time" in str(plan)
    with app.db.locked() as conn:
        assert timeline.years(conn) == []


def test_the_memories_of_periods_are_found_in_one_namespace(app: App) -> None:
    from loci.engine.search.filters import compile_filter
    from loci.storage.memory_tables import timeline

    for namespace in ("mine", "theirs"):
        chat = [
            {
                "speaker": "Ana",
                "text": f"Note {month} for {namespace}.",
                "timestamp": f"2024-{month:02d}-15T10:00:00Z",
                "session_id": f"s{month}",
            }
            for month in range(1, 13)
        ]
        app.conversations.remember_conversation(parse_messages(chat), namespace, namespace)
    spans = [
        (datetime(2024, 2, 1, tzinfo=UTC), datetime(2024, 4, 1, tzinfo=UTC)),
        (datetime(2024, 11, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC)),
    ]
    compiled = compile_filter(None, "mine")
    with app.db.locked() as conn:
        found = timeline.seqs_within(conn, spans, compiled.sql, compiled.params, 100)
        contents = {
            conn.execute("SELECT content FROM memories WHERE seq = ?", (seq,)).fetchone()[0]
            for seq in found.tolist()
        }
        assert contents == {f"Ana: Note {m} for mine." for m in (2, 3, 11, 12)}
        assert timeline.seqs_within(conn, spans, compiled.sql, compiled.params, 3).size == 3


def test_turns_of_the_one_speaker_a_question_names_rank_first(app: App) -> None:
    from loci.engine.search import hybrid
    from loci.engine.search.query_words import named_speaker
    from loci.engine.search.signals import DEFAULT
    from loci.storage.indexes.vectors.protocol import Hit
    from loci.storage.memory_tables import memories as sql

    chat = [
        {
            "speaker": who,
            "text": "I like hiking.",
            "timestamp": "2024-03-01T10:00:00Z",
            "session_id": who,
        }
        for who in ("Ana", "Ben")
    ]
    ids = app.conversations.remember_conversation(parse_messages(chat), "hikes", "hikes").ids
    with app.db.locked() as conn:
        ana, ben = (sql.fetch_by_id(conn, memory_id)[0] for memory_id in ids)  # type: ignore[index]

    def first(query: str) -> int:
        # Equal scores from both searches: only the speaker can tell the turns apart.
        found = hybrid.Candidates(
            vector=[Hit(ana, 0.5), Hit(ben, 0.5)],
            keyword={},
            actor=named_speaker(query, ["Ana", "Ben"]),
        )
        index = app.engine.index()
        vector = index.get(ana)
        assert vector is not None
        context = hybrid.Context(app.db, index, None, app.engine.indexes.keywords)
        return next(hybrid.rank(context, vector, found, DEFAULT)).key

    assert first("who likes hiking?") == ana  # a tie, broken by age
    assert first("does Ben like hiking?") == ben
    assert first("do Ana and Ben like hiking?") == ana


def test_named_speaker_needs_exactly_one_whole_name() -> None:
    from loci.engine.search.query_words import named_speaker

    speakers = ["Ana", "Ben", "Anabel"]
    assert named_speaker("what does ana like?", speakers) == "Ana"
    assert named_speaker("did Ana and Ben meet?", speakers) is None
    assert named_speaker("what about Benjamin?", speakers) is None
    # Names of several words, or with marks, are found whole wherever they stand.
    people = ["Mary Ann", "J.R. Ewing", "Tom", ""]
    assert named_speaker("What did mary ann's dog eat?", people) == "Mary Ann"
    assert named_speaker("where did J.R. Ewing go?", people) == "J.R. Ewing"
    assert named_speaker("what did Mary say?", people) is None
    assert named_speaker("", people) is None


def test_the_period_search_keeps_to_the_namespace_and_filters(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(meal_chat()), "meals", "meals")
    elsewhere = [
        {"speaker": "Ana", "text": "I cooked paella.", "timestamp": "2024-05-12T20:00:00Z"}
    ]
    app.conversations.remember_conversation(parse_messages(elsewhere), "other", "other")
    found = app.memory.recall("What did Ana cook in May 2024?", limit=10, namespace="meals")
    assert found.memories and all(hit.namespace == "meals" for hit in found.memories)
    only_ben = app.memory.recall(
        "What did Ana cook in May 2024?", limit=10, filters={"metadata.speaker": "Ben"}
    )
    assert only_ben.memories and all(hit.content.startswith("Ben:") for hit in only_ben.memories)

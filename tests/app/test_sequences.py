"""Sequences: ordered groups of memories, set by explicit arguments, stored as records of their
own, kept in step with every write and used by recall."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.errors import ConflictError, InvalidInputError
from loci.settings import load_settings
from loci.storage.databases.sqlite import SqliteDatabase
from loci.toolsets.memory.conversations.messages import parse_messages
from loci.toolsets.memory.models import MemoryDraft, SequenceDraft
from loci.toolsets.memory.transfer import ImportOptions

RELEASE_STORE = Path(__file__).parents[1] / "fixtures" / "release-0.1-store.db"


def chat(*sessions: tuple[str, list[tuple[str, str]]]) -> list[dict[str, str]]:
    return [
        {"speaker": who, "text": text, "timestamp": "2024-03-01T10:00:00Z", "session_id": sid}
        for sid, turns in sessions
        for who, text in turns
    ]


GARDEN = (
    "garden",
    [
        ("Ana", "We finally dug the new beds."),
        ("Ben", "What are you planting first?"),
        ("Ana", "Tomatoes along the fence, and basil between them."),
    ],
)
BAND = ("band", [("Ben", "Our band plays on Saturday."), ("Ana", "I will bring my camera.")])
UNRELATED = [
    "The train to Porto leaves at nine.",
    "My laptop battery died again.",
    "We should repaint the hallway.",
]


def documents(db: SqliteDatabase) -> dict[tuple[str, str], str]:
    """(namespace, sequence name) -> the sequence's keyword document."""
    with db.locked() as conn:
        rows = conn.execute(
            "SELECT s.namespace, s.name, f.content, s.stale "
            "FROM sequences s LEFT JOIN sequences_fts f ON f.rowid = s.id"
        ).fetchall()
    assert all(row[3] == 0 for row in rows)  # nothing left stale after a commit
    return {(row[0], row[1]): row[2] for row in rows}


def test_each_session_is_a_sequence_with_one_document_in_order(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat(GARDEN, BAND)), "home", "c1")
    assert documents(app.db) == {
        ("home", "c1/garden"): "Ana: We finally dug the new beds.\nBen: What are you planting "
        "first?\nAna: Tomatoes along the fence, and basil between them.",
        ("home", "c1/band"): "Ben: Our band plays on Saturday.\nAna: I will bring my camera.",
    }


def test_documents_follow_deletes_renames_and_namespace_deletion(app: App) -> None:
    ids = app.conversations.remember_conversation(
        parse_messages(chat(GARDEN, BAND)), "home", "c1"
    ).ids
    app.memory.forget(memory_id=ids[1])
    assert "What are you planting" not in documents(app.db)[("home", "c1/garden")]
    app.memory.forget_batch(ids[3:])
    assert set(documents(app.db)) == {("home", "c1/garden")}  # an empty one is dropped
    app.catalog.namespaces("rename", "home", "house")
    assert set(documents(app.db)) == {("house", "c1/garden")}
    app.catalog.namespaces("delete", "house")
    assert documents(app.db) == {}


def test_a_failed_write_leaves_the_sequences_as_they_were(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat(BAND)), "home", "c1")
    before = documents(app.db)

    def delete_then_fail() -> None:
        with app.db.write() as conn:
            conn.execute("DELETE FROM memories")
            conn.execute("INSERT INTO namespaces(name, created_at) VALUES ('home', 'x')")

    with pytest.raises(sqlite3.IntegrityError):
        delete_then_fail()
    assert documents(app.db) == before


def test_positions_order_a_sequence_whatever_the_write_order(app: App) -> None:
    def put(text: str, position: float) -> None:
        sequence = SequenceDraft("minutes", position=position, actor="Chair")
        app.memory.remember(MemoryDraft(text, namespace="m", sequence=sequence))

    put("Item three: the budget is approved.", 3)
    put("Item one: the minutes of May are read.", 1)
    put("Item two: Ana asks about the budget.", 2)
    app.memory.remember(MemoryDraft("Item 2.5, appended after the last.", namespace="m",
                                    sequence=SequenceDraft("minutes")))  # fmt: skip
    document = documents(app.db)[("m", "minutes")]
    assert document.splitlines() == [
        "Item one: the minutes of May are read.",
        "Item two: Ana asks about the budget.",
        "Item three: the budget is approved.",
        "Item 2.5, appended after the last.",
    ]
    last = app.memory.recall("appended after the last", limit=1, namespace="m").memories[0]
    assert last.sequence is not None and last.sequence.position == 4.0
    assert last.sequence.kind == "log" and last.sequence.actor is None


def test_a_position_taken_is_refused_and_stores_nothing(app: App) -> None:
    app.memory.remember(MemoryDraft("first", sequence=SequenceDraft("log", position=1)))
    with pytest.raises(ConflictError) as raised:
        app.memory.remember_all(
            [
                MemoryDraft("second", sequence=SequenceDraft("log", position=2)),
                MemoryDraft("again first", sequence=SequenceDraft("log", position=1)),
            ]
        )
    assert raised.value.details["field"] == "sequence.position"
    assert app.catalog.stats().total_memories == 1
    assert documents(app.db) == {("default", "log"): "first"}


def test_a_note_and_the_same_text_as_a_turn_score_the_same(app: App) -> None:
    """No actor, time or neighbour context in the question: the sequence cannot lift the turn
    above the note, nor push it below."""
    fact = "Mara keeps her spare house key under the blue flowerpot."
    turns = [{"speaker": "Sam", "text": text, "timestamp": "2024-03-01T10:00:00Z"}
             for text in (UNRELATED[0], fact, UNRELATED[1])]  # fmt: skip
    app.conversations.remember_conversation(parse_messages(turns), "mixed", "chat")
    app.memory.remember(MemoryDraft(f"Sam: {fact}", namespace="mixed"))
    for text in UNRELATED:
        app.memory.remember(MemoryDraft(text, namespace="mixed"))
    found = app.memory.recall("where is the spare key hidden?", limit=2, namespace="mixed")
    first, second = found.memories
    assert {first.content, second.content} == {f"Sam: {fact}"}
    assert {first.sequence is None, second.sequence is None} == {True, False}
    assert first.score == pytest.approx(second.score, abs=1e-9)


def test_user_metadata_never_makes_a_turn(app: App) -> None:
    """Keys an importer once read as a conversation are the user's: the memory stays a note."""
    metadata = {"conversation": "board", "speaker": "Ana", "timestamp": "2001-05-04",
                "session_id": "s1"}  # fmt: skip
    stored = app.memory.remember(MemoryDraft("Ana: the budget was approved.", metadata=metadata))
    memory = app.memory.get(stored.id)
    assert memory.sequence is None and memory.occurred_at is None
    assert memory.metadata == metadata
    with app.db.locked() as conn:
        assert conn.execute("SELECT count(*) FROM sequences").fetchone()[0] == 0
    app.memory.remember(MemoryDraft("Ana: the budget plan was approved."))
    found = app.memory.recall("what did Ana say in May 2001?", limit=2, explain=True)
    signals = [hit.signals for hit in found.memories]
    assert all(each is not None for each in signals)
    # Both are notes stored today: no actor, and a time of their own unknown, whatever the
    # metadata says.
    assert [(each["time"], each["actor"]) for each in signals if each] == [(1.0, 0.0)] * 2


def test_logging_turn_by_turn_ranks_as_importing_at_once(home: Path, embedder: OnnxMiniLM) -> None:
    """A turn's neighbours are the turns beside it in its session, whatever was stored in
    between: the same chat ranks the same, imported at once or a turn per call with a note
    among them."""
    turns = chat(GARDEN, BAND)
    questions = ["what is Ana planting along the fence?", "when does the band play?"]

    def ranking(app: App) -> list[list[str]]:
        found = [app.memory.recall(q, limit=6, explain=True).memories for q in questions]
        return [[m.content for m in hits if "boiler" not in m.content] for hits in found]

    at_once = build_app(load_settings(home=home / "a"), embedder=embedder)
    one_by_one = build_app(load_settings(home=home / "b"), embedder=embedder)
    try:
        at_once.conversations.remember_conversation(parse_messages(turns), "default", "c1")
        at_once.memory.remember(MemoryDraft("Unrelated: the boiler needs a service."))
        for n, turn in enumerate(turns):
            one_by_one.conversations.remember_conversation(parse_messages([turn]), "default", "c1")
            if n == 1:  # a note logged between two turns of a session
                one_by_one.memory.remember(MemoryDraft("Unrelated: the boiler needs a service."))
        assert ranking(one_by_one) == ranking(at_once)
        assert documents(one_by_one.db) == documents(at_once.db)
    finally:
        at_once.close()
        one_by_one.close()


def test_explain_reports_every_signal_and_its_weight(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat(GARDEN)), "home", "c1")
    plain = app.memory.recall("what does Ana plant?", limit=3)
    assert plain.weights is None and all(m.signals is None for m in plain.memories)
    found = app.memory.recall("what does Ana plant?", limit=3, explain=True)
    names = {"vector", "keyword", "time", "actor", "neighbours", "group", "group_keyword"}
    assert found.weights is not None and set(found.weights) == names
    for hit in found.memories:
        assert hit.signals is not None and set(hit.signals) == names
        assert 0.0 <= hit.signals["vector"] <= 1.0 and 0.0 <= hit.signals["keyword"] <= 1.0
    tomatoes = next(m for m in found.memories if "Tomatoes" in m.content)
    assert tomatoes.signals is not None and tomatoes.signals["actor"] == 1.0  # Ana is named
    vector_only = app.memory.recall("what does Ana plant?", limit=1, hybrid_alpha=1.0, explain=True)
    assert vector_only.memories[0].signals is not None
    assert set(vector_only.memories[0].signals) == {"vector"}


@pytest.mark.parametrize(
    ("sequence", "occurred_at", "field"),
    [
        (SequenceDraft("s", kind="saga"), None, "sequence.kind"),
        (SequenceDraft(""), None, "sequence.name"),
        (SequenceDraft("x" * 129), None, "sequence.name"),
        (SequenceDraft("a\x00b"), None, "sequence.name"),
        (SequenceDraft("s", position=float("nan")), None, "sequence.position"),
        (SequenceDraft("s", position=float("inf")), None, "sequence.position"),
        (SequenceDraft("s", position=True), None, "sequence.position"),
        (SequenceDraft("s", position=2.0**60), None, "sequence.position"),
        (SequenceDraft("s", actor=""), None, "sequence.actor"),
        (SequenceDraft("s", actor="x" * 129), None, "sequence.actor"),
        (None, "yesterday", "occurred_at"),
        (None, "2024-13-01", "occurred_at"),
        (None, "0001-01-01T00:00:00+01:00", "occurred_at"),
    ],
)
def test_bad_places_and_times_are_refused_and_store_nothing(
    app: App, sequence: SequenceDraft | None, occurred_at: str | None, field: str
) -> None:
    with pytest.raises(InvalidInputError) as raised:
        app.memory.remember(MemoryDraft("text", sequence=sequence, occurred_at=occurred_at))
    assert raised.value.details["field"] == field
    assert app.catalog.stats().total_memories == 0
    assert documents(app.db) == {}


def test_export_and_import_keep_places_and_times(
    app: App, home: Path, embedder: OnnxMiniLM
) -> None:
    app.conversations.remember_conversation(parse_messages(chat(GARDEN)), "home", "c1")
    exported = app.transfer.export(None, False, 0, 100)
    copy = build_app(load_settings(home=home / "copy"), embedder=embedder)
    try:
        copy.transfer.import_data(exported.export.model_dump(), ImportOptions())
        assert documents(copy.db) == documents(app.db)
        originals = {m.id: m for m in exported.export.memories}
        for memory in copy.transfer.export(None, False, 0, 100).export.memories:
            assert memory.sequence == originals[memory.id].sequence
            assert memory.occurred_at == originals[memory.id].occurred_at
    finally:
        copy.close()


def test_importing_an_export_again_keeps_every_copy_in_its_sequence(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat(BAND)), "home", "c1")
    exported = app.transfer.export(None, False, 0, 100).export.model_dump()
    result = app.transfer.import_data(exported, ImportOptions(skip_duplicates=False))
    assert result.imported == 2 and result.failed == 0
    with app.db.locked() as conn:
        positions = conn.execute(
            "SELECT i.position FROM sequence_items i ORDER BY i.position"
        ).fetchall()
    assert [row[0] for row in positions] == [0.0, 1.0, 2.0, 3.0]  # the copies after the last
    assert documents(app.db)[("home", "c1/band")].count("Our band plays") == 2


def test_doctor_names_documents_out_of_step_and_reindex_repairs_them(app: App) -> None:
    from loci.faces.cli.admin import diagnose
    from loci.faces.cli.output import CliState

    app.conversations.remember_conversation(parse_messages(chat(GARDEN, BAND)), "home", "c1")
    with app.db.locked() as conn:  # damage the derived table behind loci's back
        conn.execute("DELETE FROM sequences_fts")
    state = CliState(config=None, home=app.settings.home)
    report = diagnose(state)
    assert report["checks"]["sequences"] == 2
    assert any("2 sequences but 0 sequence documents" in p for p in report["problems"])
    assert app.transfer.reindex()["sequences"] == 2
    assert diagnose(state)["problems"] == []
    assert set(documents(app.db)) == {("home", "c1/garden"), ("home", "c1/band")}


def test_a_store_of_the_last_release_migrates_without_loss(
    tmp_path: Path, embedder: OnnxMiniLM
) -> None:
    """The release wrote turns as metadata its importer set; they become sequences, ordered
    by message time (the turn logged later lands last), and nothing else changes."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    shutil.copyfile(RELEASE_STORE, home / "loci.db")
    with sqlite3.connect(home / "loci.db") as old:
        before = old.execute(
            "SELECT id, content, namespace, tags, metadata, created_at, embedding FROM memories "
            "ORDER BY seq"
        ).fetchall()
    app = build_app(load_settings(home=home), embedder=embedder)
    try:
        with app.db.locked() as conn:
            after = conn.execute(
                "SELECT m.id, m.content, m.namespace, m.tags, m.metadata, m.created_at, "
                "v.embedding FROM memories m JOIN memory_vectors v ON v.seq = m.seq ORDER BY m.seq"
            ).fetchall()
        assert after == before
        assert documents(app.db) == {
            ("chat", "friends/s1"): "Ana: I adopted a cat named Miso last week.\nBen: Lovely! "
            "What colour is Miso?\nAna: Orange with white paws.",
            ("chat", "friends/s2"): "Ben: I start a new job in Porto in June.\nAna: "
            "Congratulations, Porto is beautiful.\nBen: The office is near the river.",
        }
        meeting = app.memory.recall("budget approved", limit=1).memories[0]
        assert meeting.content.startswith("Meeting notes") and meeting.sequence is None
        late = app.memory.recall("office near the river", limit=1, namespace="chat").memories[0]
        assert late.sequence is not None and late.sequence.position == 2.0
        assert late.occurred_at == "2023-05-08T09:02:00.000000Z"
        again = app.conversations.remember_conversation(
            parse_messages(
                [
                    {
                        "speaker": "Ben",
                        "text": "The office is near the river.",
                        "timestamp": "2023-05-08T09:02:00Z",
                        "session_id": "s2",
                        "message_id": "6",
                    }
                ]
            ),
            "chat",
            "friends",
        )
        assert again.skipped_existing == 1
    finally:
        app.close()


def test_signals_a_note_cannot_have_do_not_push_it_below_unrelated_turns(app: App) -> None:
    """A question naming a period and a person: the turns of that period by that person get
    the time and actor signals; the note, given no time of its own and naming the person in
    its text, gets them too, and its own match keeps it first."""
    turns = [
        {"speaker": "Ana", "text": text, "timestamp": "2023-05-10T10:00:00Z", "session_id": "s1"}
        for text in ("The weather was grey all week.", "I repainted the garden shed.")
    ]
    app.conversations.remember_conversation(parse_messages(turns), "life", "c1")
    note = "Ana adopted a three-legged cat called Tripod."
    app.memory.remember(MemoryDraft(note, namespace="life"))
    found = app.memory.recall(
        "Which cat did Ana adopt in May 2023?", limit=3, namespace="life", explain=True
    )
    first = found.memories[0]
    assert first.content == note and first.signals is not None
    assert (first.signals["time"], first.signals["actor"]) == (1.0, 1.0)
    dated_elsewhere = "Ana: the office moved in 2021."
    app.memory.remember(MemoryDraft(dated_elsewhere, namespace="life", occurred_at="2021-01-04"))
    found = app.memory.recall("What happened in May 2023?", limit=5, explain=True)
    times = {m.content: m.signals["time"] for m in found.memories if m.signals}
    assert times[dated_elsewhere] == 0.0  # known to be outside the period
    assert times[note] == 1.0  # unknown: no evidence against it

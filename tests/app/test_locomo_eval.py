"""The LoCoMo adapter and the recall metrics, on a tiny hand-made conversation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.errors import InvalidInputError
from loci.evaluation import locomo
from loci.evaluation.metrics import (
    Scoreboard,
    recall_at_k,
    session_recall_at_k,
    sessions_of_turns_recall,
)
from loci.evaluation.runner import EvalOptions, run_locomo
from loci.settings import load_settings

SAMPLE = {
    "sample_id": "tiny",
    "conversation": {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a grey cat called Pixel."},
            {
                "speaker": "Ben",
                "dia_id": "D1:2",
                "text": "Lovely! I am training for a marathon in Oslo.",
            },
        ],
        "session_2_date_time": "10:00 am on 20 June, 2023",
        "session_2": [
            {
                "speaker": "Ana",
                "dia_id": "D2:1",
                "text": "Pixel knocked my coffee over this morning.",
            },
            {
                "speaker": "Ben",
                "dia_id": "D2:2",
                "text": "Look at my new shoes.",
                "blip_caption": "a photo of red running shoes",
            },
        ],
    },
    "qa": [
        {
            "question": "What is the name of Ana's cat?",
            "answer": "Pixel",
            "evidence": ["D1:1"],
            "category": 4,
        },
        {
            "question": "Where is Ben's marathon?",
            "answer": "Oslo",
            "evidence": ["D1:02"],
            "category": 4,
        },
        {
            "question": "What did the cat do?",
            "answer": "coffee",
            "evidence": ["D1:1; D2:1"],
            "category": 1,
        },
        {
            "question": "What colour are Ben's shoes?",
            "answer": "red",
            "evidence": ["D:2:2"],
            "category": 2,
        },
        {"question": "Unanswerable", "answer": "x", "evidence": [], "category": 5},
        {"question": "Dangling", "answer": "x", "evidence": ["D9:9"], "category": 5},
    ],
}


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps([SAMPLE]), encoding="utf-8")
    return path


def test_evidence_ids_are_normalised() -> None:
    assert locomo.normalise_evidence("D8:6; D9:17") == ["D8:6", "D9:17"]
    assert locomo.normalise_evidence("D:11:26") == ["D11:26"]
    assert locomo.normalise_evidence("D30:05") == ["D30:5"]
    assert locomo.normalise_evidence("nonsense") == []


def test_adapter_maps_turns_onto_generic_messages(tiny: Path) -> None:
    (conversation,) = locomo.load(tiny)
    assert [m.message_id for m in conversation.messages] == ["D1:1", "D1:2", "D2:1", "D2:2"]
    shoes = conversation.messages[3]
    assert shoes.text == "Look at my new shoes. [shares a photo: a photo of red running shoes]"
    assert shoes.timestamp == "2023-06-20T10:00:00.000000Z" and shoes.session_id == "session_2"
    assert [q.evidence for q in conversation.questions] == [
        ("D1:1",),
        ("D1:2",),
        ("D1:1", "D2:1"),
        ("D2:2",),
    ]
    assert conversation.skipped == 2
    assert conversation.session_of("D2:1") == "session_2"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("[1,", "cannot read"),
        ("[]", "non-empty list"),
        ('[{"qa": []}]', "no 'conversation'"),
        ('[{"conversation": {"session_1_date_time": "soon", "session_1": []}}]', "is not like"),
        ('[{"conversation": {}}]', "no dialogue turns"),
    ],
)
def test_malformed_locomo_files_are_reported(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidInputError, match=expected):
        locomo.load(path)


def test_metrics_follow_the_definitions() -> None:
    assert recall_at_k(["a", "b"], ["x", "a", "y", "b"], 2) == 0.5
    assert recall_at_k(["a", "b"], ["x", "a", "y", "b"], 4) == 1.0
    assert recall_at_k([], ["a"], 5) == 0.0
    session = {"D1:1": "s1", "D1:2": "s1", "D2:1": "s2"}.get
    assert session_recall_at_k(["D1:1", "D2:1"], ["D1:2", "D9:9"], 5, session) == 0.5
    # Sessions are ranked by first appearance: the 2nd distinct session counts at k=2.
    assert session_recall_at_k(["D2:1"], ["D1:1", "D1:2", "D2:1"], 2, session) == 1.0
    assert sessions_of_turns_recall(["D2:1"], ["D1:1", "D1:2", "D2:1"], 2, session) == 0.0
    board = Scoreboard(ks=(1, 2))
    board.add(4, ["D1:1"], ["D1:1", "D2:1"], session)
    board.add(1, ["D1:1", "D2:1"], ["D1:2", "D2:1"], session)
    report = board.report()
    assert report["recall@1"] == 0.5 and report["recall@2"] == 0.75
    assert report["per_category"]["1"] == {"recall@1": 0.0, "recall@2": 0.5, "n": 1}
    assert report["session_recall@5"] == 1.0


def test_run_reports_every_mode_through_recall(
    tiny: Path, tmp_path: Path, embedder: OnnxMiniLM
) -> None:
    settings = load_settings(home=tmp_path / "home")
    report = run_locomo(tiny, settings, embedder, EvalOptions(ks=(1, 5)))
    assert report["questions"] == 4 and report["skipped"] == 2
    assert set(report["baselines"]) == {"keyword", "vector"}
    assert report["recall@5"] == 1.0  # four turns: everything is in the top 5
    assert 0.5 <= report["recall@1"] <= 1.0
    assert set(report["per_category"]) == {"1", "2", "4"}
    assert not (tmp_path / "home").exists()  # each conversation went into a temporary store
    with pytest.raises(InvalidInputError, match="no conversation nope"):
        run_locomo(tiny, settings, embedder, EvalOptions(conversations=["nope"]))


@pytest.mark.parametrize(("store", "notes"), [("turns", 0), ("notes", 4), ("mixed", 2)])
def test_each_store_mode_stores_its_turns_as_it_says(
    tiny: Path, tmp_path: Path, embedder: OnnxMiniLM, store: str, notes: int, monkeypatch
) -> None:
    from loci.evaluation import runner

    kinds: list[tuple[str, bool]] = []
    answer = runner._message_ids

    def spy(app, query: str, limit: int, alpha: float | None, ahead) -> list[str]:
        if not kinds:  # the store as the first question finds it
            for memory in app.transfer.export(None, False, 0, 100).export.memories:
                kinds.append((str(memory.metadata["message_id"]), memory.sequence is None))
        return answer(app, query, limit, alpha, ahead)

    monkeypatch.setattr(runner, "_message_ids", spy)
    settings = load_settings(home=tmp_path / "home")
    report = run_locomo(tiny, settings, embedder, EvalOptions(ks=(5,), store=store))
    assert report["store"] == store
    assert sum(is_note for _, is_note in kinds) == notes
    if store == "mixed":  # odd sessions are notes, even ones a conversation
        assert {turn for turn, is_note in kinds if is_note} == {"D1:1", "D1:2"}
    # The questions answered in session 1 alone (the cat's name, the marathon).
    assert report["odd_sessions"]["default"]["recall@5"] == 1.0
    with pytest.raises(InvalidInputError, match="store must be one of"):
        run_locomo(tiny, settings, embedder, EvalOptions(store="threads"))

"""`extract` on a real store: memorable sentences kept whole, the rest skipped with reasons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loci.app import App
from loci.errors import InvalidInputError
from loci.evaluation.extract_quality import run_extract
from loci.toolsets.memory.lifecycle.cues import LineContext, read_sentence
from loci.toolsets.memory.models import MemoryDraft
from tests.cli_runner import run_loci

MEETING = """\
Ana: Hi Ben! How was your weekend?
Ben: I went hiking in the Alps with my sister last Saturday. We decided to go back in June.
Ana: Wow, I'm so happy for you!
Ben: I don't remember the name of the hut, though.
Ana: I prefer the mountains in autumn, when the trails are empty.
Ben: I learned that starting before sunrise avoids the afternoon storms.
Ben: I went hiking in the Alps with my sister last Saturday.
"""


def contents(found: object) -> list[str]:
    return [item.content for item in found.extracted]  # type: ignore[attr-defined]


def test_extract_keeps_whole_sentences_with_their_speaker_and_type(app: App) -> None:
    found = app.extraction.extract(MEETING, "trip")
    kept = {item.content: item for item in found.extracted}
    hiking = "Ben: I went hiking in the Alps with my sister last Saturday."
    assert hiking in kept and kept[hiking].type == "fact" and kept[hiking].line == 2
    assert kept["Ben: We decided to go back in June."].type == "decision"
    assert (
        kept["Ana: I prefer the mountains in autumn, when the trails are empty."].type
        == "preference"
    )
    assert (
        kept["Ben: I learned that starting before sunrise avoids the afternoon storms."].type
        == "insight"
    )
    reasons = {item.text: item.reason for item in found.skipped_items}
    assert reasons["How was your weekend?"] == "a question"
    assert reasons["I don't remember the name of the hut, though."] == (
        "uncertain or negated recall"
    )
    assert reasons["Wow, I'm so happy for you!"] == "a reaction to the other speaker"
    assert reasons["I went hiking in the Alps with my sister last Saturday."] == "repeats line 2"
    assert found.total_extracted == len(found.extracted) == 4
    assert found.skipped == len(found.skipped_items) and found.text_length == len(MEETING)
    stored = app.memory.get(kept[hiking].id)
    assert stored.namespace == "trip" and stored.tags == ["fact"] and stored.source == "extract"
    assert stored.metadata == {"type": "fact", "line": 2, "speaker": "Ben"}
    assert stored.importance == kept[hiking].importance


def test_extract_skips_what_is_already_remembered(app: App) -> None:
    known = app.memory.remember(
        MemoryDraft(
            content="Ben: I went hiking in the Alps with my sister last Saturday!", namespace="trip"
        )
    ).id
    found = app.extraction.extract(MEETING, "trip")
    assert "Ben: I went hiking in the Alps with my sister last Saturday." not in contents(found)
    assert any(item.reason == f"near-duplicate of memory {known}" for item in found.skipped_items)
    again = app.extraction.extract(MEETING, "trip")
    assert again.total_extracted == 0  # everything is known now


def test_types_and_min_importance_filter(app: App) -> None:
    only = app.extraction.extract(MEETING, "trip", types=["decision"])
    assert [item.type for item in only.extracted] == ["decision"]
    assert any("not among the types asked" in i.reason for i in only.skipped_items)
    strict = app.extraction.extract(MEETING, "strict", min_importance=1.0)
    assert strict.total_extracted <= 1
    assert any("below 1.0" in item.reason for item in strict.skipped_items)


def test_plain_text_without_speakers(app: App) -> None:
    notes = "We chose PostgreSQL for the billing service in March. Great meeting everyone."
    found = app.extraction.extract(notes)
    assert contents(found) == ["We chose PostgreSQL for the billing service in March."]


def test_extract_refuses_bad_input_and_stores_nothing(app: App) -> None:
    for bad in (
        {"text": ""},
        {"text": "x", "types": ["gossip"]},
        {"text": "x", "types": []},
        {"text": "x", "namespace": "../etc"},
        {"text": "x", "min_importance": 2.0},
        {"text": "x" * (app.engine.limits.max_content_bytes * 4 + 1)},
    ):
        with pytest.raises(InvalidInputError):
            app.extraction.extract(**bad)  # type: ignore[arg-type]
    assert app.catalog.stats().total_memories == 0


def test_reading_sentences() -> None:
    context = LineContext(words=12, answers_question=True)
    assert read_sentence("Did you go?", context).reason == "a question"
    assert read_sentence("Nice!", context).reason == "too short to say anything"
    answer = read_sentence("I adopted a puppy named Miso last week.", context)
    plain = read_sentence(
        "I adopted a puppy named Miso last week.", LineContext(12, answers_question=False)
    )
    assert answer.reason is None and answer.importance > plain.importance > 0.3


def test_cli_extract_reads_standard_input(app: App) -> None:
    done = run_loci(app.settings.home, "extract", "-n", "trip", "--json", answers=MEETING)
    assert done.returncode == 0
    assert json.loads(done.stdout)["total_extracted"] == 4
    refused = run_loci(app.settings.home, "extract", "--type", "gossip", answers=MEETING)
    assert refused.returncode != 0


def test_eval_extract_counts_items_for_their_turns(app: App, tmp_path: Path) -> None:
    sample = {
        "sample_id": "tiny",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben, how are you?"},
                {"speaker": "Ben", "dia_id": "D1:2", "text": MEETING.splitlines()[1][5:]},
                {"speaker": "Ana", "dia_id": "D1:3", "text": "Wow, I'm so happy for you!"},
            ],
        },
        "observation": {"session_1_observation": {"Ben": [["Ben hiked.", "D1:02"]]}},
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    report = run_extract(path, app.settings, app.embedder)
    assert report["precision"] == 1.0 and report["recall"] == 1.0
    assert report["baseline_every_turn"]["precision"] == round(1 / 3, 3)
    shown = run_loci(app.settings.home, "eval", "extract", str(path))
    assert shown.returncode == 0 and "every turn" in shown.stdout

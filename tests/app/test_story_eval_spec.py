"""`loci eval story` on a spec of a writer's own: characters only, no planted facts and no
places, measures the cast and leaves the figures it has nothing to measure on blank."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.errors import InvalidInputError
from loci.evaluation.story import load, run_story
from loci.settings import load_settings
from loci.toolsets.story.eval_commands import render, render_table

NOVEL = "\n\n".join(
    [
        '"Good morning," said Mira Voss. Tomas Reyes waved to Mira Voss from the quay.',
        '"Is the tide in?" asked Tomas Reyes. Mira laughed, and Tomas went down to the boats.',
    ]
    * 4
)


def test_a_spec_without_needles_or_places_measures_the_cast(
    tmp_path: Path, embedder: OnnxMiniLM
) -> None:
    (tmp_path / "novel.txt").write_text(NOVEL, encoding="utf-8")
    spec = tmp_path / "spec.json"
    characters = [{"name": "Mira Voss", "aliases": ["Mira"]}, {"name": "Tomas Reyes"}]
    spec.write_text(json.dumps({"novel": "novel.txt", "characters": characters}))
    report = run_story(spec, load_settings(home=tmp_path / "home"), embedder)
    assert report["character_recall"] == 1.0
    assert report["place_recall"] is None
    assert "needle_in_context" not in report and report["baseline"] == {}
    rows = {line.split()[0]: line.split() for line in render_table({"mine": report}).splitlines()}
    assert rows["needle_in_context"][1] == "-" and rows["place_recall"][1] == "-"
    assert rows["character_recall"][1] == "1.0"
    assert "needle_in_context" in render(report)


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ({"novel": "novel.txt", "characters": {"Mira Voss": ["Mira"]}}, "characters"),
        ({"novel": "novel.txt", "characters": [{"aliases": ["Mira"]}]}, "characters.0.name"),
        ({"novel": "missing.txt", "characters": [{"name": "Mira"}]}, "is not a file"),
        ({"novel": "novel.txt", "characters": [{"name": "Mira"}], "place": ["Quay"]}, "place"),
        ([], "the file"),
    ],
)
def test_a_spec_that_does_not_fit_is_refused_with_the_field_at_fault(
    tmp_path: Path, spec: object, said: str
) -> None:
    (tmp_path / "novel.txt").write_text(NOVEL, encoding="utf-8")
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(InvalidInputError, match=re.escape(said)):
        load(path)
    path.write_text("not json")
    with pytest.raises(InvalidInputError, match="not a story spec"):
        load(path)

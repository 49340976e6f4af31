"""Editing a memory in place and browsing memories page by page, on both engines."""

from __future__ import annotations

from typing import Any

import pytest

from loci.app import App
from loci.errors import ConflictError, InvalidInputError, NotFoundError
from loci.storage.memory_tables.pages import Shown
from loci.toolsets.memory.models import MemoryDraft


def _remember(app: App, text: str, **fields: Any) -> str:
    return app.memory.remember(MemoryDraft(content=text, **fields)).id


def test_an_edited_text_is_found_by_recall_under_the_same_id(app: App) -> None:
    memory_id = _remember(app, "The spare key hangs by the garden door.", tags=["home"])
    _remember(app, "Trains to Lisbon leave from platform four.")
    edited = app.editor.edit(memory_id, content="The spare key is taped under the red bench.")
    assert edited.id == memory_id and edited.content.endswith("red bench.")
    assert edited.updated_at > edited.created_at
    hits = app.memory.recall("where is the key taped?", limit=1, hybrid_alpha=0.0).memories
    assert [hit.id for hit in hits] == [memory_id]  # the keyword index has the new words
    hits = app.memory.recall("bench key", limit=1, hybrid_alpha=1.0).memories
    assert hits[0].id == memory_id and hits[0].similarity > 0.5  # and the vector
    assert not app.memory.recall("garden door", limit=5, hybrid_alpha=0.0).memories


def test_tags_and_importance_change_and_the_text_stays(app: App) -> None:
    memory_id = _remember(app, "Standup is at nine.", tags=["work"], importance=0.3)
    edited = app.editor.edit(memory_id, tags=["work", "meetings"], importance=0.9)
    assert (edited.tags, edited.importance) == (["work", "meetings"], 0.9)
    assert edited.content == "Standup is at nine."
    page = app.browser.page(Shown(tag="meetings"))
    assert [memory.id for memory in page.memories] == [memory_id]
    found = app.memory.recall("standup", filters={"tags": "meetings"}).memories
    assert [hit.id for hit in found] == [memory_id]


def test_an_edit_of_a_memory_changed_since_it_was_read_is_refused(app: App) -> None:
    memory_id = _remember(app, "The boiler was serviced in March.")
    seen = app.memory.get(memory_id).updated_at
    app.editor.edit(memory_id, importance=0.8)
    with pytest.raises(ConflictError):
        app.editor.edit(memory_id, content="The boiler was serviced in May.", read_at=seen)
    assert app.memory.get(memory_id).content == "The boiler was serviced in March."


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"content": "   "}, "content"),
        ({"content": "x" * 70_000}, "content"),
        ({"content": "nul\x00"}, "content"),
        ({"importance": 1.5}, "importance"),
        ({"tags": ["ok", "x" * 65]}, "tags"),
    ],
)
def test_bad_edits_are_refused_and_change_nothing(
    app: App, change: dict[str, Any], field: str
) -> None:
    memory_id = _remember(app, "Keep the receipts for a year.", tags=["tax"])
    before = app.memory.get(memory_id)
    with pytest.raises(InvalidInputError) as refused:
        app.editor.edit(memory_id, **change)
    assert refused.value.details.get("field", "").startswith(field)
    assert app.memory.get(memory_id) == before


@pytest.mark.parametrize("memory_id", ["no-such-id", "../../etc/passwd", ""])
def test_editing_a_missing_or_malformed_id_is_refused(app: App, memory_id: str) -> None:
    with pytest.raises((NotFoundError, InvalidInputError)):
        app.editor.edit(memory_id, importance=0.5)


def test_pages_walk_every_memory_once_in_both_orders(app: App) -> None:
    ids = [
        _remember(app, f"Note number {n} about the allotment.", occurred_at=f"2024-05-{n:02d}")
        for n in range(1, 12)
    ]
    _remember(app, "Elsewhere entirely.", namespace="other")
    for oldest_first, expected in ((True, ids), (False, ids[::-1])):
        seen: list[str] = []
        after = None
        while True:
            page = app.browser.page(
                Shown(namespaces=frozenset({"default"})), after, 4, oldest_first
            )
            seen += [memory.id for memory in page.memories]
            if page.next is None:
                break
            after = page.next
        assert seen == expected


def test_pages_keep_to_their_filters(app: App) -> None:
    old = _remember(app, "An old and minor note.", occurred_at="2023-01-05", importance=0.2)
    key = _remember(app, "A key note from May.", occurred_at="2024-05-05", importance=0.9)
    _remember(app, "A minor note from May.", occurred_at="2024-05-06", importance=0.1)
    page = app.browser.page(Shown(min_importance=0.5))
    assert [m.id for m in page.memories] == [key]
    page = app.browser.page(Shown(until="2024-01-01"))
    assert [m.id for m in page.memories] == [old]
    page = app.browser.page(Shown(since="2024-05-06"))
    assert [m.content for m in page.memories] == ["A minor note from May."]
    assert app.browser.page(Shown(namespaces=frozenset())).memories == []


@pytest.mark.parametrize("after", ["nonsense", "12~not-a-date", "-1~2024-01-01", "~", "9" * 30])
def test_a_forged_cursor_is_refused(app: App, after: str) -> None:
    with pytest.raises(InvalidInputError):
        app.browser.page(Shown(), after)


def test_a_page_size_out_of_range_is_refused(app: App) -> None:
    for size in (0, 201):
        with pytest.raises(InvalidInputError):
            app.browser.page(Shown(), None, size)

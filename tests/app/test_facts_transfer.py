"""Facts in time travel with an export: validity, and the link to a successor, are imported
back; an export of a store written before them reads as true from when each memory happened."""

from __future__ import annotations

from loci.app import App
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.transfer import ImportOptions

ENGINES = ("sqlite", "postgresql")


def test_validity_and_successors_survive_export_and_import(app: App) -> None:
    old = app.memory.remember(MemoryDraft("Dana lives in Berlin.", "dana", valid_from="2022-03-01"))
    new = app.facts.supersede(old.id, "Dana lives in Lisbon.", valid_from="2023-09-15").new_id
    ended = app.memory.remember(
        MemoryDraft(
            "Dana chairs the board.", "dana", valid_from="2021-01-01", valid_until="2024-01-01"
        )
    )
    exported = app.transfer.export("dana").export.model_dump()
    app.memory.forget(namespace="dana")
    result = app.transfer.import_data(exported, ImportOptions(skip_duplicates=False))
    assert result.imported == 3 and result.failed == 0
    back = app.memory.get(old.id)
    assert back.valid_from == "2022-03-01T00:00:00.000000Z"
    assert back.valid_until == "2023-09-15T00:00:00.000000Z" and back.superseded_by == new
    assert app.memory.get(new).supersedes == [old.id]
    assert app.memory.get(ended.id).valid_until == "2024-01-01T00:00:00.000000Z"
    assert [m.id for m in app.facts.history(new).chain] == [old.id, new]


def test_an_import_with_a_bad_date_reports_the_item_and_stores_the_rest(app: App) -> None:
    good = app.memory.remember(MemoryDraft("A fact.", "x"))
    document = app.transfer.export("x").export.model_dump()
    app.memory.forget(namespace="x")
    broken = {**document["memories"][0], "id": good.id, "valid_from": "someday"}
    crossed = {
        **document["memories"][0],
        "id": "00000000-0000-4000-8000-000000000001",
        "content": "Another fact.",
        "valid_from": "2024-01-01",
        "valid_until": "2023-01-01",
    }
    result = app.transfer.import_data({**document, "memories": [broken, crossed]}, ImportOptions())
    assert result.imported == 0 and result.failed == 2
    assert "valid_from" in result.errors[0].message
    assert "before it starts" in result.errors[1].message


def test_memories_written_before_validity_are_true_from_when_they_happened(app: App) -> None:
    said = app.memory.remember(
        MemoryDraft("We met in Porto.", "x", occurred_at="2021-06-01T12:00:00Z")
    )
    stored = app.memory.remember(MemoryDraft("A plain note.", "x"))
    assert app.memory.get(said.id).valid_from == "2021-06-01T12:00:00.000000Z"
    assert app.memory.get(stored.id).valid_from == stored.created_at
    with app.db.locked() as conn:
        rows = conn.execute("SELECT count(*) FROM memory_validity").fetchone()[0]
    assert rows == 0  # nothing said of their time: nothing stored for it

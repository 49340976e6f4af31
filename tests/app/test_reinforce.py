"""`reinforce` on a real store: importance rises when asked, within its cap, and filters see it."""

from __future__ import annotations

import pytest

from loci.app import App
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.memory.models import MemoryDraft
from tests.cli_runner import run_loci


def test_importance_rises_by_the_boost_up_to_the_cap(app: App) -> None:
    memory_id = app.memory.remember(MemoryDraft(content="Deploys happen on Fridays")).id
    first = app.reinforcement.reinforce(memory_id, boost=0.2)
    assert (first.importance_before, first.importance_after) == (0.5, 0.7)
    capped = app.reinforcement.reinforce(memory_id, boost=0.5, max_importance=0.9)
    assert capped.importance_after == 0.9
    # Above the cap already: reinforcing never lowers it.
    kept = app.reinforcement.reinforce(memory_id, boost=0.1, max_importance=0.6)
    assert kept.importance_after == 0.9
    assert app.memory.get(memory_id).importance == 0.9


def test_recall_filters_on_importance_see_the_new_value(app: App) -> None:
    memory_id = app.memory.remember(MemoryDraft(content="The deploy key lives in the vault")).id
    important = {"importance": {"gte": 0.8}}
    assert app.memory.recall("deploy key", filters=important).memories == []
    app.reinforcement.reinforce(memory_id, boost=0.4)
    found = app.memory.recall("deploy key", filters=important).memories
    assert [m.id for m in found] == [memory_id]
    # Recall itself never changes importance.
    assert app.memory.get(memory_id).importance == pytest.approx(0.9)


def test_bad_input_changes_nothing(app: App) -> None:
    memory_id = app.memory.remember(MemoryDraft(content="A note")).id
    with pytest.raises(NotFoundError):
        app.reinforcement.reinforce("00000000-0000-4000-8000-000000000000")
    for boost in (0.0, -0.1, 1.5):
        with pytest.raises(InvalidInputError, match="boost"):
            app.reinforcement.reinforce(memory_id, boost=boost)
    with pytest.raises(InvalidInputError, match="max_importance"):
        app.reinforcement.reinforce(memory_id, max_importance=2.0)
    with pytest.raises(InvalidInputError, match="memory_id"):
        app.reinforcement.reinforce("../x")
    assert app.memory.get(memory_id).importance == 0.5


def test_the_cli(app: App) -> None:
    memory_id = app.memory.remember(MemoryDraft(content="Tea, never coffee")).id
    home = app.settings.home
    app.close()
    shown = run_loci(home, "reinforce", memory_id, "--boost", "0.3")
    assert shown.returncode == 0, shown.stderr
    assert "importance 0.5 -> 0.8" in shown.stdout
    refused = run_loci(home, "reinforce", memory_id, "--boost", "0")
    assert refused.returncode == 2

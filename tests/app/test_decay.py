"""`decay` on a real store: idle memories lose importance once per idle time, never twice."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from loci.app import App
from loci.errors import InvalidInputError, NotFoundError
from loci.timeutil import format_time
from loci.toolsets.memory.lifecycle.decay import DecayService
from loci.toolsets.memory.models import MemoryDraft
from tests.cli_runner import run_loci


class Clock:
    """A clock tests move by hand."""

    def __init__(self) -> None:
        self.moment = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.moment

    def later(self, days: float) -> None:
        self.moment += timedelta(days=days)


def importance(app: App, memory_id: str) -> float:
    return app.memory.get(memory_id).importance


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_decay_is_exponential_in_idle_time_and_never_counts_it_twice(
    app: App, clock: Clock
) -> None:
    decay = DecayService(app.db, clock)
    memory_id = app.memory.remember(MemoryDraft(content="The cat is called Miso")).id
    clock.later(60)
    first = decay.decay("time", decay_rate=0.1)
    assert first.affected == 1 and first.decay_applied[0].importance_after == pytest.approx(
        0.5 * 0.9**2, abs=1e-4
    )
    assert "created 60 days ago" in first.decay_applied[0].reason
    again = decay.decay("time", decay_rate=0.1)
    assert again.affected == 0 and again.unchanged == 1  # idempotent
    clock.later(30)
    decay.decay("time", decay_rate=0.1)
    assert importance(app, memory_id) == pytest.approx(0.5 * 0.9**3, abs=1e-4)  # no compounding


def test_daily_runs_end_where_one_monthly_run_does(app: App, clock: Clock) -> None:
    decay = DecayService(app.db, clock)
    daily = app.memory.remember(MemoryDraft(content="Daily", importance=0.8)).id
    for _ in range(30):
        clock.later(1)
        decay.decay("access", decay_rate=0.2, namespace="default")
    assert importance(app, daily) == pytest.approx(0.8 * 0.8, abs=2e-3)


def test_floor_dry_run_and_low_memories(app: App, clock: Clock) -> None:
    decay = DecayService(app.db, clock)
    high = app.memory.remember(MemoryDraft(content="High", importance=0.9)).id
    low = app.memory.remember(MemoryDraft(content="Low", importance=0.01)).id
    clock.later(3650)
    preview = decay.decay("time", decay_rate=0.5, min_importance=0.05, dry_run=True)
    assert preview.dry_run and preview.affected == 1
    assert preview.decay_applied[0].importance_after == 0.05
    assert importance(app, high) == 0.9  # a dry run changes nothing
    decay.decay("time", decay_rate=0.5, min_importance=0.05)
    assert importance(app, high) == 0.05 and importance(app, low) == 0.01  # never raised


def backdate(app: App, memory_id: str, days: float, uses: int = 0) -> None:
    """Make a memory created and last used `days` ago, `uses` times."""
    stamp = format_time(datetime.now(UTC) - timedelta(days=days))
    with app.db.write() as conn:
        conn.execute(
            "UPDATE memories SET created_at = ?, last_accessed = ?, access_count = ? WHERE id = ?",
            (stamp, stamp, uses, memory_id),
        )


def test_use_restarts_the_clock_and_combined_softens_it(app: App) -> None:
    decay = DecayService(app.db)
    used = app.memory.remember(MemoryDraft(content="The deploy key lives in the vault")).id
    idle = app.memory.remember(MemoryDraft(content="Tomatoes grow on the balcony")).id
    backdate(app, used, 90)
    backdate(app, idle, 90)
    for _ in range(3):
        app.memory.recall("where is the deploy key?", limit=1)
    assert importance(app, used) == 0.5  # recall never writes importance
    preview = decay.decay("time", decay_rate=0.1, dry_run=True)
    assert preview.affected == 2  # both are 90 days old
    decay.decay("access", decay_rate=0.1)
    assert importance(app, idle) == pytest.approx(0.5 * 0.9**3, abs=1e-4)
    assert importance(app, used) == 0.5  # used just now: no idle time
    never = app.memory.remember(MemoryDraft(content="Never used note")).id
    often = app.memory.remember(MemoryDraft(content="Often used note")).id
    backdate(app, never, 30)
    backdate(app, often, 30, uses=5)
    decay.decay("combined", decay_rate=0.3)
    assert importance(app, never) == pytest.approx(0.35, abs=1e-4)
    assert importance(app, never) < importance(app, often) < 0.5


def test_decay_refuses_bad_input_and_changes_nothing(app: App, clock: Clock) -> None:
    decay = DecayService(app.db, clock)
    memory_id = app.memory.remember(MemoryDraft(content="Keep me")).id
    clock.later(100)
    for bad in (
        {"strategy": "entropy"},
        {"decay_rate": 1.5},
        {"min_importance": -0.1},
        {"namespace": "../etc"},
    ):
        with pytest.raises(InvalidInputError):
            decay.decay(**bad)  # type: ignore[arg-type]
    with pytest.raises(NotFoundError):
        decay.decay(namespace="missing")
    assert importance(app, memory_id) == 0.5
    empty = DecayService(app.db, clock).decay(namespace="default", decay_rate=0.0)
    assert empty.affected == 0 and empty.unchanged == 1


def test_cli_decay(app: App) -> None:
    app.memory.remember(MemoryDraft(content="Anything"))
    shown = run_loci(app.settings.home, "decay", "--dry-run")
    assert shown.returncode == 0 and "would lower 0 memories, 1 unchanged" in shown.stdout
    as_json = json.loads(run_loci(app.settings.home, "decay", "--json").stdout)
    assert as_json["strategy"] == "combined" and as_json["dry_run"] is False
    refused = run_loci(app.settings.home, "decay", "--strategy", "entropy")
    assert refused.returncode != 0

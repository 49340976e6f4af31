"""`decay`: memories nobody uses lose importance, a little for each idle month.

A memory loses `decay_rate` of its importance per DECAY_PERIOD idle, exponentially and never
below `min_importance`. Its idle clock starts at its creation (strategy `time`) or its last
access (`access`, `combined`), or at its last decay when that is later: decay never counts the
same time twice, so running it twice in a row changes nothing the second time, and running it
daily or monthly ends at the same importance. `combined` also softens the rate for memories
used often. Changes too small to store are skipped and leave the clock running.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from loci import fields
from loci.engine.search.engine import require_namespace
from loci.errors import InvalidInputError
from loci.storage.databases.db import Database
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import upkeep
from loci.timeutil import format_time, parse_time
from loci.toolsets.memory.lifecycle.models import (
    DECAY_STRATEGIES,
    DECAYS_LISTED,
    DecayedMemory,
    DecayResult,
)

#: The idle time over which a memory loses `decay_rate` of its importance.
DECAY_PERIOD = timedelta(days=30)
#: Importance changes below this are not written (the idle clock keeps running instead).
SMALLEST_CHANGE = 1e-4

Clock = Callable[[], datetime]


@dataclass(frozen=True)
class _Change:
    seq: int
    memory: DecayedMemory


class DecayService:
    """Lowers the importance of idle memories."""

    def __init__(self, db: Database, clock: Clock | None = None) -> None:
        self._db = db
        self._clock = clock or (lambda: datetime.now(UTC))

    def decay(
        self,
        strategy: str = "combined",
        decay_rate: float = 0.1,
        min_importance: float = 0.05,
        namespace: str | None = None,
        dry_run: bool = False,
    ) -> DecayResult:
        """Lower idle memories' importance (or, with dry_run, say what would change)."""
        if strategy not in DECAY_STRATEGIES:
            choices = ", ".join(DECAY_STRATEGIES)
            raise InvalidInputError(f"strategy must be one of {choices}", field="strategy")
        decay_rate = fields.unit_float(decay_rate, "decay_rate")
        min_importance = fields.unit_float(min_importance, "min_importance")
        scope = fields.namespace(namespace) if namespace is not None else None
        moment = self._clock()
        stamp = format_time(moment)
        with self._db.write() as conn:
            if scope is not None:
                require_namespace(conn, scope)
            rows = upkeep.important_above(conn, scope, min_importance)
            changes = [
                change
                for row in rows
                if (change := _decayed(row, strategy, decay_rate, min_importance, moment))
            ]
            if not dry_run:
                lowered = [(c.seq, c.memory.importance_after) for c in changes]
                upkeep.set_decayed(conn, lowered, stamp)
            count = sql.count_in_scope(conn, scope)
        changes.sort(key=lambda c: c.memory.importance_after - c.memory.importance_before)
        return DecayResult(
            strategy=strategy,
            affected=len(changes),
            unchanged=count - len(changes),
            decay_applied=[c.memory for c in changes[:DECAYS_LISTED]],
            dry_run=dry_run,
        )


def _decayed(
    row: Sequence[Any], strategy: str, rate: float, floor: float, moment: datetime
) -> _Change | None:
    seq, memory_id, content, importance, created, accessed, uses, decayed = row
    before = float(importance)
    start: str = created if strategy == "time" else accessed
    if decayed is not None and decayed > start:  # stored times compare as text
        start = decayed
    idle = moment - parse_time(start)
    if idle <= timedelta(0):
        return None
    softened = rate / (1.0 + math.log1p(int(uses))) if strategy == "combined" else rate
    after = max(floor, before * (1.0 - softened) ** (idle / DECAY_PERIOD))
    if before - after < SMALLEST_CHANGE:
        return None
    reason = f"{'not accessed' if strategy != 'time' else 'created'} {_days(idle)} ago"
    if strategy == "combined":
        reason += f", used {uses} times"
    return _Change(
        seq=int(seq),
        memory=DecayedMemory(
            id=str(memory_id),
            content=str(content),
            importance_before=before,
            importance_after=round(after, 6),
            reason=reason,
        ),
    )


def _days(idle: timedelta) -> str:
    days = idle / timedelta(days=1)
    return f"{days:.0f} days" if days >= 1 else f"{idle / timedelta(hours=1):.1f} hours"

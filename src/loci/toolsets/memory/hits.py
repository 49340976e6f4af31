"""Ranked memories read into hits, and put in order of what is true now (or at the time a
question asks about).

A memory that was replaced or has ended ranks below the memories still true; it is left out
when its successor is itself among the hits (unless the caller asks for the history); of two
memories flagged as contradicting each other, the one that became true later ranks first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from itertools import islice

from loci.engine.search import hybrid
from loci.engine.search.engine import MemoryEngine
from loci.engine.search.when import Period
from loci.storage.databases.db import Database
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import validity
from loci.timeutil import format_time, now
from loci.toolsets.memory.models import MemoryHit
from loci.toolsets.memory.rows import row_to_hit

#: Hits read beyond the limit when facts in time may leave some out.
SPARE = 5


def load_hits(
    db: Database,
    engine: MemoryEngine,
    ranked: Iterable[hybrid.Ranked],
    limit: int,
    touch: bool,
    moment: str | None = None,
    include_history: bool = False,
) -> list[MemoryHit]:
    """The first `limit` of `ranked` as hits; with a `moment`, in order of what is true then
    (reading up to SPARE more when the store holds any facts in time); `touch`: count a use."""
    with db.locked() as conn:
        in_time = moment is not None and validity.any_stored(conn)
        taken = list(islice(ranked, limit + SPARE if in_time else limit))
        records = sql.rows_by_seq(conn, [hit.key for hit in taken]) if taken else {}
    seen = now() if touch else None
    hits = [
        row_to_hit(records[hit.key], hit.similarity, hit.score, seen, hit.signals)
        for hit in taken
        if hit.key in records
    ]
    if in_time and moment is not None:
        hits = now_first(hits, moment, include_history)[:limit]
    if seen is not None and hits:
        seq_of = {row[1]: seq for seq, row in records.items()}
        seqs = [seq_of[hit.id] for hit in hits]
        # Access statistics are written behind the answer, by the worker thread; the hits
        # already show them as they will be stored. Queued once the hits are built, so the
        # worker does not compete with building them.
        db.write_behind(lambda conn: sql.touch(conn, seqs, seen))
        engine.beside(db.flush_behind)
    return hits


def asked_time(periods: Sequence[Period]) -> str | None:
    """The time a question asks about when it names past periods ("where did Dana live in
    2023?"): the end of the latest, read as `as_of` is for ordering (nothing is left out)."""
    if not periods:
        return None
    latest = max(period.end for period in periods) - timedelta(microseconds=1)
    return format_time(latest) if latest < datetime.now(UTC) else None


def now_first(hits: list[MemoryHit], moment: str, include_history: bool) -> list[MemoryHit]:
    """`hits` in order of what is true at `moment`: true ones first (of a disputed pair, the
    later first), then those not yet or no longer true; a replaced one whose successor is
    among the hits left out unless `include_history`."""
    present = {hit.id for hit in hits}
    true_now: list[MemoryHit] = []
    other: list[MemoryHit] = []
    for hit in hits:
        ended = hit.valid_until is not None and hit.valid_until <= moment
        if ended and hit.superseded_by in present and not include_history:
            continue
        starts_later = hit.valid_from is not None and hit.valid_from > moment
        (other if ended or starts_later else true_now).append(hit)
    return [*_later_disputes_first(true_now), *other]


def _later_disputes_first(hits: list[MemoryHit]) -> Iterator[MemoryHit]:
    """`hits` in their order, but a memory disputed by one that became true later and ranks
    below it waits until that one is out."""
    waiting: dict[str, list[MemoryHit]] = {}
    later_than = {hit.id: hit.valid_from or "" for hit in hits}
    for position, hit in enumerate(hits):
        rival = next(
            (
                other
                for other in hits[position + 1 :]
                if other.id in hit.disputed_with and later_than[other.id] > later_than[hit.id]
            ),
            None,
        )
        if rival is not None:
            waiting.setdefault(rival.id, []).append(hit)
            continue
        yield hit
        yield from _released(hit.id, waiting)


def _released(key: str, waiting: dict[str, list[MemoryHit]]) -> Iterator[MemoryHit]:
    for hit in waiting.pop(key, []):
        yield hit
        yield from _released(hit.id, waiting)

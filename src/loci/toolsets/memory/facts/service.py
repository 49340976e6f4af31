"""Facts that change: a memory replaced by another, ended, or flagged as contradicting one.

Nothing here deletes: a replaced memory stays, closed at the time its successor became true
and linked to it, so that "as of" questions still find it (`forget` is the way to delete).
"""

from __future__ import annotations

from collections.abc import Sequence

from loci import fields
from loci.engine.search.engine import MemoryEngine
from loci.errors import InvalidInputError, NotFoundError
from loci.storage.databases.db import Connection, Database
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import validity
from loci.timeutil import now
from loci.toolsets.memory.facts.contradictions import Detector
from loci.toolsets.memory.models import (
    BatchConflicts,
    Conflict,
    ConflictPair,
    ConflictsResult,
    DismissResult,
    HistoryResult,
    InvalidateResult,
    MemoryDraft,
    MemoryRef,
    RememberBatchFactResult,
    RememberFactResult,
    SupersedeResult,
)
from loci.toolsets.memory.rows import row_to_memory
from loci.toolsets.memory.service import MemoryService

ON_CONFLICT = ("flag", "supersede", "keep")
#: Open conflicts listed at most.
MAX_CONFLICTS = 200


def _check_on_conflict(on_conflict: str) -> None:
    if on_conflict not in ON_CONFLICT:
        raise InvalidInputError(
            f"on_conflict must be one of {', '.join(ON_CONFLICT)}, got {fields.shown(on_conflict)}",
            field="on_conflict",
        )


class FactService:
    """Supersede, invalidate, history, and conflicts flagged at write."""

    def __init__(
        self, db: Database, engine: MemoryEngine, memory: MemoryService, detector: Detector
    ) -> None:
        self._db = db
        self._engine = engine
        self._memory = memory
        self._detector = detector

    def remember(self, draft: MemoryDraft, on_conflict: str = "flag") -> RememberFactResult:
        """Store `draft`, looking first for current memories of its namespace it likely
        contradicts: flagged (`flag`), superseded by it (`supersede`) or left (`keep`)."""
        _check_on_conflict(on_conflict)
        # The vector index catches up with the writes before this one while the text embeds:
        # the search for what it contradicts needs both, and the two use different cores.
        caught_up = self._engine.beside(self._engine.catch_up)
        ready = self._memory.embedded(draft)
        caught_up.result()
        checked, stamp = ready.draft, now()
        starts = checked.valid_from or checked.occurred_at or stamp
        found = self._detector.conflicts(checked.content, checked.namespace, ready.vector, starts)
        done: list[tuple[Conflict, int]] = []

        def settle(conn: Connection, seq: int) -> None:
            done.extend(self._settle(conn, seq, found, on_conflict, stamp))

        result = self._memory.store_embedded(ready, after=settle if found else None)
        return RememberFactResult(
            **result.model_dump(),
            valid_from=checked.valid_from or checked.occurred_at or result.created_at,
            conflicts=[conflict for conflict, _ in done],
            on_conflict=on_conflict,
        )

    def remember_batch(
        self, drafts: Sequence[MemoryDraft | InvalidInputError], on_conflict: str = "flag"
    ) -> RememberBatchFactResult:
        """Store many memories in one transaction (as `MemoryService.remember_batch`), then
        look for what each contradicts among the memories stored before it, the batch's
        earlier items included, and handle it as `on_conflict` says."""
        _check_on_conflict(on_conflict)
        stored = self._memory.remember_batch(drafts)
        with self._db.locked() as conn:
            seq_of = sql.seqs_of_ids(conn, stored.ids)
            rows = sql.rows_by_seq(conn, list(seq_of.values()))
        index = self._engine.index()
        found: list[tuple[int, list[tuple[Conflict, int]]]] = []
        for memory_id in stored.ids:
            seq = seq_of[memory_id]
            vector = index.get(seq)
            if vector is None or seq not in rows:
                continue
            content, namespace = str(rows[seq][2]), str(rows[seq][3])
            starts = str(row_to_memory(rows[seq])[1].valid_from)
            detected = self._detector.conflicts(content, namespace, vector, starts)
            earlier = [(conflict, other) for conflict, other in detected if other < seq]
            if earlier:
                found.append((seq, earlier))
        if found:
            stamp = now()
            with self._db.write() as conn:
                found = [
                    (seq, self._settle(conn, seq, conflicts, on_conflict, stamp))
                    for seq, conflicts in found
                ]
        id_of = {seq: memory_id for memory_id, seq in seq_of.items()}
        return RememberBatchFactResult(
            **stored.model_dump(),
            conflicts=[
                BatchConflicts(id=id_of[seq], conflicts=[c for c, _ in conflicts])
                for seq, conflicts in found
            ],
            on_conflict=on_conflict,
        )

    def supersede(
        self,
        old_id: str,
        content: str | None = None,
        new_id: str | None = None,
        valid_from: str | None = None,
    ) -> SupersedeResult:
        """Replace the memory `old_id` by a new one (`content`, stored in its namespace) or by
        one already stored (`new_id`): the old one ends when the new one became true."""
        old_id = fields.memory_id(old_id, "old_id")
        if (content is None) == (new_id is None):
            raise InvalidInputError(
                "give content (a new memory) or new_id (a stored one), exactly one of them",
                field="new_id",
            )
        start = None if valid_from is None else fields.moment(valid_from, "valid_from")
        old = self._seq(old_id, "old_id")
        if new_id is not None:
            new_id = fields.memory_id(new_id, "new_id")
            return self._supersede_by(old_id, old, new_id, start)
        namespace = self.namespace_of(old_id)
        closed: list[str] = []

        def close_old(conn: Connection, seq: int) -> None:
            closed.append(self._close(conn, old, seq, validity.effective_from(conn, seq)))

        draft = MemoryDraft(content=str(content), namespace=namespace, valid_from=start)
        with self._db.locked() as conn:
            self._check_open(conn, old, old_id)
        stored = self._memory.remember(draft, after=close_old)
        return SupersedeResult(old_id=old_id, new_id=stored.id, valid_until=closed[0], created=True)

    def invalidate(self, memory_id: str, valid_until: str | None = None) -> InvalidateResult:
        """End the memory `memory_id` at `valid_until` (default: now), with no successor."""
        memory_id = fields.memory_id(memory_id)
        end = now() if valid_until is None else fields.moment(valid_until, "valid_until")
        seq = self._seq(memory_id, "id")
        with self._db.write() as conn:
            start = validity.effective_from(conn, seq)
            if end < start:
                raise InvalidInputError(
                    f"valid_until ({end}) is before the memory became true ({start})",
                    field="valid_until",
                )
            validity.close(conn, seq, end, None)
            validity.resolve_all(conn, seq, now())  # ended: its disputes are moot
        return InvalidateResult(id=memory_id, valid_until=end)

    def dismiss_conflict(self, first_id: str, second_id: str) -> DismissResult:
        """Say two memories do not contradict each other: never flagged again as a pair."""
        ids = [fields.memory_id(first_id, "first_id"), fields.memory_id(second_id, "second_id")]
        if ids[0] == ids[1]:
            raise InvalidInputError("a memory cannot conflict with itself", field="second_id")
        first, second = self._seq(ids[0], "first_id"), self._seq(ids[1], "second_id")
        with self._db.write() as conn:
            flagged = validity.settle(conn, first, second, validity.DISMISSED, now())
        return DismissResult(ids=ids, was_flagged=flagged)

    def history(self, memory_id: str) -> HistoryResult:
        """The chain `memory_id` is part of, the first version first."""
        memory_id = fields.memory_id(memory_id)
        seq = self._seq(memory_id, "id")
        with self._db.locked() as conn:
            before = validity.predecessors(conn, seq)
            after = validity.successors(conn, seq)
            order = [*reversed(before), seq, *after]
            rows = sql.rows_by_seq(conn, order)
        return HistoryResult(
            id=memory_id, chain=[row_to_memory(rows[s])[1] for s in order if s in rows]
        )

    def open_conflicts(self, namespace: str | None = None) -> ConflictsResult:
        """The conflicts flagged and not yet settled, newest first."""
        if namespace is not None:
            namespace = fields.namespace(namespace)
        with self._db.locked() as conn:
            rows = validity.open_conflicts(conn, namespace, MAX_CONFLICTS)
        return ConflictsResult(
            conflicts=[
                ConflictPair(
                    older=MemoryRef(id=row[0], content=row[1]),
                    newer=MemoryRef(id=row[2], content=row[3]),
                    reason=row[4],
                    noted_at=row[5],
                )
                for row in rows
            ]
        )

    def namespace_of(self, memory_id: str) -> str:
        """The namespace of a stored memory (NotFoundError if there is none)."""
        with self._db.locked() as conn:
            found = sql.namespaces_of_ids(conn, [memory_id])
        if memory_id not in found:
            raise NotFoundError(f"no memory with id {memory_id}", memory_id=memory_id)
        return found[memory_id]

    # -- helpers -------------------------------------------------------------------------------

    def _supersede_by(
        self, old_id: str, old: int, new_id: str, start: str | None
    ) -> SupersedeResult:
        new = self._seq(new_id, "new_id")
        if new == old:
            raise InvalidInputError("a memory cannot supersede itself", field="new_id")
        with self._db.write() as conn:
            self._check_open(conn, old, old_id)
            if old in validity.successors(conn, new):
                raise InvalidInputError(
                    f"memory {new_id} was itself replaced by {old_id} (directly or through "
                    "others): superseding would make a cycle",
                    field="new_id",
                )
            if start is not None:
                ended = validity.spans(conn, [new]).get(new)
                if (
                    ended is not None
                    and ended.valid_until is not None
                    and ended.valid_until <= start
                ):
                    raise InvalidInputError(
                        f"memory {new_id} ended ({ended.valid_until}) before the valid_from "
                        f"given ({start}): an interval cannot end before it starts",
                        field="valid_from",
                    )
                validity.start(conn, new, start)
            until = self._close(conn, old, new, start or validity.effective_from(conn, new))
        return SupersedeResult(old_id=old_id, new_id=new_id, valid_until=until, created=False)

    def _settle(
        self,
        conn: Connection,
        seq: int,
        found: Sequence[tuple[Conflict, int]],
        on_conflict: str,
        stamp: str,
    ) -> list[tuple[Conflict, int]]:
        """Flag the memory at `seq` against what it contradicts, or supersede that by it; each
        conflict with what was done. A pair is flagged in the order its two memories became
        true, and a memory that became true after the new one is never superseded by it."""
        start = validity.effective_from(conn, seq)
        done = []
        for conflict, old in found:
            began = validity.effective_from(conn, old)
            if on_conflict == "keep":
                outcome = "kept"
            elif on_conflict == "supersede" and start >= began:
                self._close(conn, old, seq, start)
                outcome = "superseded"
            else:
                older, newer = (old, seq) if start >= began else (seq, old)
                validity.note_conflict(conn, older, newer, conflict.reason, stamp)
                outcome = "flagged"
            done.append((conflict.model_copy(update={"outcome": outcome}), old))
        return done

    def _close(self, conn: Connection, old: int, new: int, until: str) -> str:
        """End `old` at `until`, replaced by `new`, and settle any conflict between them."""
        start = validity.effective_from(conn, old)
        if until < start:
            raise InvalidInputError(
                f"the new memory became true ({until}) before the old one did ({start}): swap "
                "them (old_id is the one true first), or give a valid_from after the old one's",
                field="valid_from",
            )
        validity.close(conn, old, until, new)
        validity.settle(conn, old, new, validity.RESOLVED, now())
        validity.resolve_all(conn, old, now())  # replaced: its other disputes are moot
        return until

    def _check_open(self, conn: Connection, old: int, old_id: str) -> None:
        span = validity.spans(conn, [old]).get(old)
        if span is not None and span.superseded_by is not None:
            row = sql.rows_by_seq(conn, [span.superseded_by]).get(span.superseded_by)
            successor = None if row is None else str(row[1])
            raise InvalidInputError(
                f"memory {old_id} was already replaced by {successor}; supersede that one",
                field="old_id",
                superseded_by=successor,
            )

    def _seq(self, memory_id: str, field: str) -> int:
        with self._db.locked() as conn:
            row = sql.fetch_by_id(conn, memory_id)
        if row is None:
            raise NotFoundError(f"no memory with id {memory_id} ({field})", memory_id=memory_id)
        return int(row[0])

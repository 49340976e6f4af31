"""Where each conversation turn sits, mirrored in memory: its thread, speaker and namespace.

Ranking looks up a few hundred turns per recall (the candidates, their neighbours and theirs)
to lift answers next to matching questions. Read from SQLite right after the query has been
embedded, with every page cold, those lookups took ~0.65 ms in a 2.7k-turn store; from this
mirror ~0.25 ms (numpy arrays instead of a dict were slower at this size: 0.10 against 0.08 ms
warm). The mirror is derived data, kept in step with the database by `IndexSync`
from the same change log as the vector index (migration 7 logs metadata changes too).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from loci.stores.memories import Threads, neighbours_in_threads


class Turn(NamedTuple):
    """One conversation turn's place: thread id, speaker (None if not a string), namespace."""

    thread: int
    speaker: str | None
    namespace: str


#: The turns among some seqs (bind them as a JSON array), in the form `TurnDirectory.update` reads.
TURNS_OF = (
    "SELECT t.seq, t.thread, t.speaker, m.namespace FROM json_each(?) j "
    "CROSS JOIN conversation_turns t ON t.seq = j.value CROSS JOIN memories m ON m.seq = t.seq"
)
ALL_TURNS = (
    "SELECT t.seq, t.thread, t.speaker, m.namespace FROM conversation_turns t "
    "CROSS JOIN memories m ON m.seq = t.seq"
)


class TurnDirectory:
    """seq -> Turn for every conversation turn in the store."""

    def __init__(self) -> None:
        self._turns: dict[int, Turn] = {}

    def __len__(self) -> int:
        return len(self._turns)

    def load(self, conn: sqlite3.Connection) -> None:
        """Read every turn of the store."""
        self._turns.clear()
        self._store(conn.execute(ALL_TURNS).fetchall())

    def update(self, conn: sqlite3.Connection, seqs: Sequence[int]) -> None:
        """Re-read these seqs: turns are (re)stored, anything else is dropped."""
        for seq in seqs:
            self._turns.pop(seq, None)
        self._store(conn.execute(TURNS_OF, (json.dumps(list(seqs)),)).fetchall())

    def threads_of(self, seqs: Iterable[int]) -> set[int]:
        """The threads of those seqs that are turns."""
        turns = self._turns
        return {turn.thread for seq in seqs if (turn := turns.get(seq)) is not None}

    def threads(self, seqs: Sequence[int], namespaces: frozenset[str] | None) -> Threads:
        """Like `memories.conversation_threads` for a filter that admits whole namespaces
        (None: all): the turns around `seqs`, their neighbours, threads and speakers."""
        turns = self._turns
        thread: dict[int, int] = {}
        speaker: dict[int, str] = {}
        for seq in {seq + step for seq in seqs for step in (-2, -1, 0, 1, 2)}:
            turn = turns.get(seq)
            if turn is None or (namespaces is not None and turn.namespace not in namespaces):
                continue
            thread[seq] = turn.thread
            if turn.speaker is not None:
                speaker[seq] = turn.speaker
        return Threads(neighbours_in_threads(seqs, thread), thread, speaker)

    def _store(self, rows: Iterable[tuple[int, int, object, str]]) -> None:
        for seq, thread, speaker, namespace in rows:
            shown = speaker if isinstance(speaker, str) else None
            self._turns[int(seq)] = Turn(int(thread), shown, namespace)

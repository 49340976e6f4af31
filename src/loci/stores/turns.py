"""Where each conversation turn sits, mirrored in memory: its thread, speaker and namespace.

Ranking looks up a few hundred turns per recall (the candidates and the turns around them) to
lift answers next to matching questions. Read from SQLite right after the query has been
embedded, with every page cold, those lookups took ~0.65 ms in a 2.7k-turn store. This mirror
holds them as sorted numpy arrays, so that ranking gets the facts of all its candidates in a
few vectorised lookups and scores them as arrays (see `scoring`). It is derived data, kept in
step with the database by `IndexSync` from the same change log as the vector index
(migration 7 logs metadata changes too).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from loci.stores.memories import Threads, neighbours_in_threads
from loci.stores.name_codes import NameCodes
from loci.stores.speaker_names import Speakers, first_word

Keys = npt.NDArray[np.int64]
Codes = npt.NDArray[np.int32]

#: The turns among some seqs (bind them as a JSON array), in the form `TurnDirectory.update` reads.
TURNS_OF = (
    "SELECT t.seq, t.thread, t.speaker, m.namespace FROM json_each(?) j "
    "CROSS JOIN conversation_turns t ON t.seq = j.value CROSS JOIN memories m ON m.seq = t.seq"
)
ALL_TURNS = (
    "SELECT t.seq, t.thread, t.speaker, m.namespace FROM conversation_turns t "
    "CROSS JOIN memories m ON m.seq = t.seq"
)
#: A turn's neighbours and theirs: what ranking needs to know around each candidate.
AROUND = np.arange(-2, 3, dtype=np.int64)
#: How many namespace scopes' speakers are kept (filters name a few scopes; this bounds a
#: client that names a new one every time).
MAX_SCOPES = 64


def around(seqs: Keys) -> Keys:
    """`seqs` and the memories up to two steps from them, sorted and distinct."""
    wide = np.sort((seqs[:, None] + AROUND).ravel())
    if wide.shape[0] == 0:
        return wide
    # Sorting and dropping repeats beats np.unique (which hashes first) at these sizes, and
    # building the mask in place beats np.r_ (13 us for a few hundred seqs).
    kept = np.empty(wide.shape[0], dtype=np.bool_)
    kept[0] = True
    np.not_equal(wide[1:], wide[:-1], out=kept[1:])
    distinct: Keys = wide[kept]
    return distinct


class TurnFacts(NamedTuple):
    """Conversation facts of some memories (`seqs`, sorted and distinct): each one's thread
    id (-1 when it is not a turn, or not admitted) and speaker code (-1 for none), and the
    speakers' names by code."""

    seqs: Keys
    threads: Keys
    speakers: Codes
    names: Sequence[str]

    def at(self, seqs: Keys) -> TurnFacts:
        """The facts of `seqs` (sorted and distinct), -1 where these facts hold none."""
        if self.seqs.shape[0] == 0:
            missing = np.full(seqs.shape[0], -1, dtype=np.int64)
            return TurnFacts(seqs, missing, missing.astype(np.int32), self.names)
        where = np.minimum(np.searchsorted(self.seqs, seqs), self.seqs.shape[0] - 1)
        found = self.seqs[where] == seqs
        return TurnFacts(
            seqs,
            np.where(found, self.threads[where], -1),
            np.where(found, self.speakers[where], -1).astype(np.int32),
            self.names,
        )

    def as_threads(self, seqs: Iterable[int]) -> Threads:
        """The same facts in the form `memories.conversation_threads` answers, for `seqs`."""
        turn = self.threads >= 0
        thread = dict(zip(self.seqs[turn].tolist(), self.threads[turn].tolist(), strict=True))
        spoke = turn & (self.speakers >= 0)
        speaker = {
            seq: self.names[code]
            for seq, code in zip(
                self.seqs[spoke].tolist(), self.speakers[spoke].tolist(), strict=True
            )
        }
        return Threads(neighbours_in_threads(seqs, thread), thread, speaker)


#: The facts of a store without conversations.
NO_TURNS = TurnFacts(
    np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32), ()
)


def facts_of_threads(threads: Threads) -> TurnFacts:
    """`memories.conversation_threads`'s answer as facts (for filters the mirror cannot serve)."""
    seqs = np.array(sorted(threads.thread_of), dtype=np.int64)
    names = sorted(set(threads.speaker_of.values()))
    codes = {name: code for code, name in enumerate(names)}
    return TurnFacts(
        seqs,
        np.array([threads.thread_of[seq] for seq in seqs.tolist()], dtype=np.int64),
        np.array(
            [codes.get(threads.speaker_of.get(seq, ""), -1) for seq in seqs.tolist()],
            dtype=np.int32,
        ),
        names,
    )


class TurnDirectory:
    """Every conversation turn of the store, by seq: thread, speaker and namespace codes."""

    def __init__(self) -> None:
        self._seqs: Keys = np.zeros(0, dtype=np.int64)
        self._threads: Keys = np.zeros(0, dtype=np.int64)
        self._speakers: Codes = np.zeros(0, dtype=np.int32)
        self._namespaces: Codes = np.zeros(0, dtype=np.int32)
        self._speaker_codes = NameCodes()
        self._namespace_codes = NameCodes()
        self._speakers_by_word: dict[str, list[int]] = {}  # speaker codes by first word
        # Speakers by namespace scope, until the turns change: recall asks on every query.
        self._voices: dict[frozenset[str] | None, Speakers] = {}

    def __len__(self) -> int:
        return int(self._seqs.shape[0])

    def load(self, conn: sqlite3.Connection) -> None:
        """Read every turn of the store."""
        self._remove(self._seqs)
        self._add(conn.execute(ALL_TURNS).fetchall())

    def update(self, conn: sqlite3.Connection, seqs: Sequence[int]) -> None:
        """Re-read these seqs: turns are (re)stored, anything else is dropped."""
        self._remove(np.array(seqs, dtype=np.int64))
        self._add(conn.execute(TURNS_OF, (json.dumps(list(seqs)),)).fetchall())

    def threads_of(self, seqs: Iterable[int]) -> set[int]:
        """The threads of those seqs that are turns."""
        whole = TurnFacts(self._seqs, self._threads, self._speakers, self._speaker_codes.names)
        facts = whole.at(np.unique(np.fromiter(seqs, dtype=np.int64)))
        return set(facts.threads[facts.threads >= 0].tolist())

    def around(self, seqs: Keys, namespaces: frozenset[str] | None) -> TurnFacts:
        """The facts of `seqs` and of the memories up to two steps from them, for a filter
        that admits whole namespaces (None: all); turns of other namespaces count as none."""
        wide = around(seqs)
        if self._seqs.shape[0] == 0:
            return NO_TURNS.at(wide)
        where = np.minimum(np.searchsorted(self._seqs, wide), self._seqs.shape[0] - 1)
        found = self._seqs[where] == wide
        if namespaces is not None:
            found &= self._namespace_codes.admitted(namespaces)[self._namespaces[where]]
        return TurnFacts(
            wide,
            np.where(found, self._threads[where], -1),
            np.where(found, self._speakers[where], -1).astype(np.int32),
            self._speaker_codes.names,
        )

    def threads(self, seqs: Sequence[int], namespaces: frozenset[str] | None) -> Threads:
        """Like `memories.conversation_threads` for a filter that admits whole namespaces
        (None: all): the turns around `seqs`, their neighbours, threads and speakers."""
        return self.around(np.array(seqs, dtype=np.int64), namespaces).as_threads(seqs)

    def speakers(self, namespaces: frozenset[str] | None) -> Speakers:
        """Everyone who speaks in a turn of those namespaces (None: all)."""
        known = self._voices.get(namespaces)
        if known is None:
            spoke = self._speakers >= 0
            if namespaces is not None:
                spoke &= self._namespace_codes.admitted(namespaces)[self._namespaces]
            names = self._speaker_codes.names
            present = np.bincount(self._speakers[spoke], minlength=len(names)) > 0
            known = Speakers(names, self._speakers_by_word, present)
            if len(self._voices) >= MAX_SCOPES:
                self._voices.clear()
            self._voices[namespaces] = known
        return known

    def _remove(self, seqs: Keys) -> None:
        if self._seqs.shape[0] == 0 or seqs.shape[0] == 0:
            return
        keep = ~np.isin(self._seqs, seqs)
        if keep.all():  # none of them was a turn
            return
        self._voices.clear()
        self._seqs, self._threads = self._seqs[keep], self._threads[keep]
        self._speakers, self._namespaces = self._speakers[keep], self._namespaces[keep]

    def _add(self, rows: Sequence[tuple[int, int, object, str]]) -> None:
        if not rows:
            return
        self._voices.clear()
        seqs = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        threads = np.fromiter((row[1] for row in rows), dtype=np.int64, count=len(rows))
        speakers = np.fromiter(
            (self._speaker_code(row[2]) for row in rows), dtype=np.int32, count=len(rows)
        )
        namespaces = np.fromiter(
            (self._namespace_codes.code(row[3]) for row in rows), dtype=np.int32, count=len(rows)
        )
        order = np.argsort(seqs, kind="stable")
        # New turns are usually the newest memories: then they just go at the end.
        appended = self._seqs.shape[0] == 0 or int(seqs[order[0]]) > int(self._seqs[-1])
        self._seqs = np.concatenate([self._seqs, seqs[order]])
        self._threads = np.concatenate([self._threads, threads[order]])
        self._speakers = np.concatenate([self._speakers, speakers[order]])
        self._namespaces = np.concatenate([self._namespaces, namespaces[order]])
        if not appended:
            order = np.argsort(self._seqs, kind="stable")
            self._seqs, self._threads = self._seqs[order], self._threads[order]
            self._speakers, self._namespaces = self._speakers[order], self._namespaces[order]

    def _speaker_code(self, speaker: object) -> int:
        if not isinstance(speaker, str):
            return -1
        known = len(self._speaker_codes)
        code = self._speaker_codes.code(speaker)
        word = first_word(speaker)
        if code == known and word is not None:  # a new name
            self._speakers_by_word.setdefault(word, []).append(code)
        return code

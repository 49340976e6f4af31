"""Conversation speakers found by the words of a text, without a pass over all of them: a chat
export can hold thousands of speakers, and recall looks for them in every query: a lookup by
word instead of case-folding and searching every name."""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from loci.engine.sequences import members
from loci.storage.databases.db import Database

WORD = re.compile(r"\w+", re.UNICODE)

#: How many namespace scopes' actors are kept (filters name a few scopes; this bounds a
#: client that names a new one every time).
MAX_SCOPES = 64
#: Speaker codes by the first word of their name: {word: [code, ...]}.
CodesByWord = Mapping[str, Sequence[int]]


def first_word(name: str) -> str | None:
    """The first word of a name, case-folded (None for a name without a word)."""
    found = WORD.search(name.casefold())
    return found.group() if found is not None else None


class Speakers(NamedTuple):
    """The speakers of some conversations: all names by code, their codes by first word, and
    by code, whether each speaks in these conversations."""

    names_by_code: Sequence[str]
    codes_by_word: CodesByWord
    present: npt.NDArray[np.bool_]

    @property
    def names(self) -> frozenset[str]:
        """The names of those who speak here."""
        return frozenset(self.names_by_code[code] for code in np.flatnonzero(self.present).tolist())

    def candidates(self, text: str) -> list[str]:
        """The names of those who speak here whose first word is a word of `text`, ignoring
        case: the names it may hold (the caller checks each whole name where it stands)."""
        present, count = self.present, self.present.shape[0]
        if not self.codes_by_word or not present.any():
            return []  # no one speaks here: skip reading the text (it may be 60 KB)
        return [
            self.names_by_code[code]
            for word in set(WORD.findall(text.casefold()))
            for code in self.codes_by_word.get(word, ())
            if code < count and present[code]
        ]

    @classmethod
    def of(cls, names: Sequence[str]) -> Speakers:
        """Speakers from a list of names, each speaking (tools and tests)."""
        by_word: dict[str, list[int]] = {}
        for code, name in enumerate(names):
            word = first_word(name)
            if word is not None:
                by_word.setdefault(word, []).append(code)
        return cls(names, by_word, np.ones(len(names), dtype=np.bool_))


class ActorDirectory:
    """The actors of each namespace scope, as `Speakers`: the same object until the memories
    change (recall asks at every query; reading them is a query of its own)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._known: dict[frozenset[str] | None, Speakers] = {}
        self._as_of = -1
        self._lock = threading.Lock()

    def of(self, namespaces: frozenset[str] | None, as_of: int) -> Speakers:
        """The actors of the sequences in those namespaces (None: all), for the memories as
        they were at change-log position `as_of`."""
        with self._lock:
            if as_of != self._as_of:
                self._known.clear()
                self._as_of = as_of
            known = self._known.get(namespaces)
            if known is None:
                with self._db.locked() as conn:
                    known = Speakers.of(members.actors(conn, namespaces))
                if len(self._known) >= MAX_SCOPES:
                    self._known.clear()
                self._known[namespaces] = known
            return known

"""Contradictions flagged at write, without a language model.

A new memory is compared with the current memories of its namespace closest to it in meaning
(the vector index gives them, from the vector the write embedded anyway); a pair contradicts
when both claim the same kind of fact of the same subject with different values (`claims`),
not merely when the wording is close.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from loci import sentences
from loci.engine.search.engine import MemoryEngine
from loci.storage.databases.db import Database
from loci.storage.indexes.vectors.protocol import Allowed
from loci.storage.memory_tables import validity
from loci.toolsets.memory.facts.claim_patterns import TIME_WORDS
from loci.toolsets.memory.facts.claims import CACHED_TEXTS, ME, Claim, claims, hedged
from loci.toolsets.memory.models import Conflict

#: Current memories compared with a new one, the closest in meaning first.
NEIGHBOURS = 8
#: Below this cosine, two statements are about different things whatever their words.
MIN_SIMILARITY = 0.1

KIND_WORDS = {
    "home": "where {s} lives",
    "employer": "where {s} works",
    "role": "{s}'s role",
    "diet": "{s}'s diet",
    "relationship": "{s}'s relationship",
    "age": "{s}'s age",
    "phone": "{s}'s phone number",
    "email": "{s}'s email",
    "address": "{s}'s address",
    "vehicle": "what {s} drives or rides",
}


def contradiction(new: str, old: str) -> str | None:
    """Why `new` contradicts `old`, in words, or None if it does not seem to."""
    old_claims = claims(old)
    for claim in claims(new):
        for earlier in old_claims:
            if _same_fact(claim, earlier) and _different(claim.value, earlier.value):
                return _reason(claim, earlier)
    return restated(new, old)


def _same_fact(a: Claim, b: Claim) -> bool:
    if a.kind.startswith("habit:") and b.kind.startswith("habit:"):
        return a.subject == b.subject and _same_habit(a.kind, b.kind)
    if a.kind.startswith("text:") or b.kind.startswith("text:"):
        # A value in words may be one of several: only a change replaces it.
        if not _changed_value(a.kind, b.kind):
            return False
    elif a.kind != b.kind and not _changed_value(a.kind, b.kind):
        return False
    if a.subject == b.subject:
        return True
    if ME in (a.subject, b.subject) or a.subject.startswith("@") or b.subject.startswith("@"):
        return False
    # A thing named at more or less length ("standup", "the team's standup meeting"), not
    # two things that share a word ("the annual report", "the quarterly report").
    words, others = set(a.subject.split()), set(b.subject.split())
    return words <= others or others <= words


def _same_habit(a: str, b: str) -> bool:
    """The same habit: the same verb and object, or the same object given up ("quit
    coffee" and "drinks coffee")."""
    _, verb_a, what_a = a.split(":", 2)
    _, verb_b, what_b = b.split(":", 2)
    return what_a == what_b and (verb_a == verb_b or "*" in (verb_a, verb_b))


def _changed_value(a: str, b: str) -> bool:
    """A thing's value said changed (`value:change`, `text:change`) and the same thing's value
    given with another verb, as a quantity or time (`value:`) or in words (`text:`)."""
    kind_a, _, relation_a = a.partition(":")
    kind_b, _, relation_b = b.partition(":")
    return kind_a == kind_b in ("value", "text") and "change" in (relation_a, relation_b)


def _different(a: str, b: str) -> bool:
    return a != b and not (f" {a} " in f" {b} " or f" {b} " in f" {a} ")


def _reason(new: Claim, old: Claim) -> str:
    who = "you" if new.subject == ME else new.subject
    kind = new.kind.split(":")
    if kind[0] in KIND_WORDS:
        what = KIND_WORDS[kind[0]].format(s=who)
    elif kind[0] == "habit":
        verb = kind[1] if kind[1] != "*" else old.kind.split(":")[1]
        what = f"whether {who} {verb.replace('*', 'keep')}s {kind[2]}".strip()
    elif kind[0] in ("version", "favorite", "count"):
        what = f"{who}'s {kind[0]} of {kind[1]}"
    elif kind[0] == "attribute":
        what = f"{who}'s {kind[1]}"
    else:
        what = f"the {new.subject}"
    return f"both say {what}: '{old.value}' before, '{new.value}' now"


#: Words a restatement may add or drop without changing what it states.
FRAME_NOISE = frozenset(
    {"the", "a", "an", "now", "currently", "still", "again", "new", "no", "longer", "anymore"}
    | {"these", "days", "today", "recently", "just", "actually"}
)
#: The verbs of a statement of what is, whose value a later one can replace.
STATES = frozenset({"is", "are", "am"})
TOKEN = re.compile(r"\d+(?:[.,:]\d+)*%?|[A-Za-z][\w'-]*")
#: A restatement is judged on one short sentence; longer texts are left to the claims.
MAX_FRAME_WORDS = 25


def restated(new: str, old: str) -> str | None:
    """Why `new` is `old` stated again with other values (names, numbers, times in place of
    others, every other word the same), or None."""
    a, b = _frame(new), _frame(old)
    if a is None or b is None or a[0] != b[0] or not a[1] or not b[1]:
        return None
    if a[1] <= b[1] or b[1] <= a[1]:
        return None
    return (
        f"the same statement with other values: '{' '.join(sorted(b[1] - a[1]))}' before, "
        f"'{' '.join(sorted(a[1] - b[1]))}' now"
    )


@lru_cache(maxsize=CACHED_TEXTS)
def _frame(text: str) -> tuple[tuple[str, ...], frozenset[str]] | None:
    """A one-sentence statement of what is (a present "is" / "are"), as its words and the
    values after its verb; what comes before the verb names the subject, numbers and names
    included ("Task 5 is done" and "Task 6 is done" are about two tasks). Events ("went to
    the beach on Monday") state no value that a later one replaces."""
    split = sentences.split(text.strip())
    tokens = TOKEN.findall(text)
    if len(split) != 1 or not tokens or len(tokens) > MAX_FRAME_WORDS or hedged(text):
        return None
    verb = next((i for i, token in enumerate(tokens) if token.lower() in STATES), None)
    if verb is None or verb == 0:
        return None
    words = [token.lower() for token in tokens[: verb + 1]]
    values = set()
    for token in tokens[verb + 1 :]:
        lowered = token.lower()
        if token[0].isdigit() or (token[0].isupper() and token != "I") or lowered in TIME_WORDS:
            values.add(lowered)
        elif lowered not in FRAME_NOISE:
            words.append(lowered)
    return tuple(words), frozenset(values)


class Detector:
    """Finds the current memories of a namespace that a new text likely contradicts."""

    def __init__(self, db: Database, engine: MemoryEngine) -> None:
        self._db = db
        self._engine = engine

    def conflicts(
        self, content: str, namespace: str, vector: np.ndarray[Any, Any], starts: str
    ) -> list[tuple[Conflict, int]]:
        """(conflict, seq) for each current memory of `namespace` `content` (true from
        `starts`) contradicts."""
        frame = _frame(content)
        if not claims(content) and (frame is None or not frame[1]):
            return []  # it states nothing a memory could contradict
        index = self._engine.index()
        hits = index.search(vector, NEIGHBOURS, Allowed(namespaces=frozenset({namespace})))
        seqs = [hit.key for hit in hits if hit.similarity >= MIN_SIMILARITY]
        return self._judged(content, starts, seqs)

    def _judged(self, content: str, starts: str, seqs: Sequence[int]) -> list[tuple[Conflict, int]]:
        if not seqs:
            return []
        with self._db.locked() as conn:
            current = validity.current_texts(conn, list(seqs))
        found = []
        for seq in seqs:
            if seq not in current:
                continue  # deleted meanwhile, ended or replaced: nothing left to contradict
            memory_id, text, began = current[seq]
            # Told in the order things became true, whatever the order they were written in.
            later, earlier = (text, content) if began > starts else (content, text)
            reason = contradiction(later, earlier)
            if reason is not None:
                found.append((Conflict(id=memory_id, content=text, reason=reason), seq))
        return found

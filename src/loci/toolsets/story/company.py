"""Whom each name of a story keeps company with: the names it meets in paragraphs and in
sentences, and the cues of its mentions. Two names of one person keep the same company;
suggestions of the cast read it (see `suggestions`)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from loci.storage.databases.db import Connection
from loci.toolsets.story import kinds
from loci.toolsets.story.entity import Entity


@dataclass
class Company:
    """Whom each entity appears with: in paragraphs (its company) and in sentences."""

    paragraph: dict[int, Counter[int]] = field(default_factory=dict)
    sentence: dict[int, Counter[int]] = field(default_factory=dict)
    #: The cues of each entity's mentions (its pronouns say its sex).
    votes: dict[int, kinds.Votes] = field(default_factory=dict)
    _totals: dict[int, int] = field(default_factory=dict)

    @classmethod
    def read(cls, conn: Connection, session: int, entities: Sequence[Entity]) -> Company:
        """The meetings of the session's names, by entity."""
        entity_of = {name: e.id for e in entities for name in e.names}
        company = cls()
        rows = conn.execute(
            "SELECT a, b, paragraph, sentence FROM story_meetings WHERE session = ?", (session,)
        )
        cues = conn.execute(
            f"SELECT id, {kinds.VOTE_COLUMNS} FROM story_names WHERE session = ?", (session,)
        )
        for name, *counted in cues:
            owner = entity_of.get(name)
            if owner is not None:
                votes = kinds.Votes(*(int(v) for v in counted))
                company.votes[owner] = company.votes.get(owner, kinds.Votes()) + votes
        for a, b, paragraph, sentence in rows:
            x, y = entity_of.get(a), entity_of.get(b)
            if x is None or y is None or x == y:
                continue
            for one, other in ((x, y), (y, x)):
                company.paragraph.setdefault(one, Counter())[other] += int(paragraph)
                company.sentence.setdefault(one, Counter())[other] += int(sentence)
        return company

    def likeness(self, a: int, b: int) -> float:
        """How alike the company of `a` and `b` is: the cosine of whom each meets in
        paragraphs (each other aside), each meeting weighed by how much more often than
        chance the two meet (positive PMI), so that the hero everyone meets tells little and
        the suitor only one sister meets tells much. Two names of one person keep the same
        company."""
        first, second = self._weighed(a, skip=b), self._weighed(b, skip=a)
        dot = sum(first[k] * second[k] for k in set(first) & set(second))
        norms = math.sqrt(sum(v * v for v in first.values())) * math.sqrt(
            sum(v * v for v in second.values())
        )
        return dot / norms if norms else 0.0

    def _weighed(self, entity: int, skip: int) -> dict[int, float]:
        if not self._totals:
            self._totals = {e: sum(met.values()) for e, met in self.paragraph.items()}
        everyone = sum(self._totals.values()) or 1
        mine = self._totals.get(entity, 0) or 1
        weighed = {}
        for other, count in self.paragraph.get(entity, Counter()).items():
            if other != skip and count > 0:
                pmi = math.log(count * everyone / (mine * (self._totals.get(other, 0) or 1)))
                if pmi > 0:
                    weighed[other] = pmi
        return weighed

    def named_apart(self, a: Entity, others: Iterable[Entity], share: float) -> list[Entity]:
        """The `others` named beside `a` in more than `share` of its mentions' sentences: two
        people, most often."""
        return [o for o in others if self.met_in_sentences(a.id, o.id) > share * a.mentions]

    def closest(self, a: int, others: Iterable[Entity]) -> float:
        """The likeness of `a` to the one of `others` whose company is most like its own."""
        return max((self.likeness(a, other.id) for other in others), default=0.0)

    def met_in_sentences(self, a: int, b: int) -> int:
        """How often `a` and `b` were named in one sentence (two people, most often)."""
        return self.sentence.get(a, Counter())[b]

    def met(self, a: int, b: int) -> int:
        """How often `a` and `b` were named in one paragraph."""
        return self.paragraph.get(a, Counter())[b]

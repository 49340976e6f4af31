"""What tells people apart beyond what their names share: which names met in one sentence of
narration (two people: "De Lacey" and Felix), which restated one another ("Teddy, or Mr.
Theodore Laurence": one), the titles they are called by ("Captain Tilney" and "Mr. Tilney",
where either could be someone else), and the words a story uses as given names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from loci.toolsets.story.name_readings import eldest_and_younger
from loci.toolsets.story.people import Person, head_and_formal, names_conflict, titles_differ
from loci.toolsets.story.told_apart import knight_and_namesake

#: Two names met in this many sentences of narration (or a tenth of the rarer's mentions, if
#: more) are two people.
APART_SENTENCES = 2
APART_SHARE = 0.1
SAME_NAME_APART = 3


@dataclass(frozen=True)
class Together:
    """How often two names met in one sentence: apart, and restating one another; and
    whether the story says outright they are one person's (`loci.toolsets.story.stated`), or
    tells them apart as two people's (`loci.toolsets.story.generations`)."""

    sentence: int = 0
    apposition: int = 0
    stated: int = 0
    parted: int = 0


@dataclass
class Evidence:
    """What tells people apart beyond their names: the names that met in sentences, those
    that restated one another, the words the story uses as given names, and each name's
    words."""

    apart: dict[int, dict[int, int]] = field(default_factory=dict)
    restated: list[tuple[int, int, int]] = field(default_factory=list)
    given_words: frozenset[str] = frozenset()
    words_of: dict[int, frozenset[str]] = field(default_factory=dict)
    #: The family names the story gives one woman only (`name_readings.lone_families`).
    lone_families: frozenset[str] = frozenset()
    #: The pairs of names the writer kept apart (`corrections.declined`), with those the
    #: story tells apart (`parted`).
    declined: frozenset[frozenset[int]] = frozenset()
    #: The pairs of names the story itself tells apart (`Together.parted`).
    parted: frozenset[frozenset[int]] = frozenset()
    #: How often the story writes each given name alone (`name_readings.given_alone`).
    given_alone: dict[str, int] = field(default_factory=dict)
    #: The families the story writes of as two daughters or more (`name_readings.sisters`).
    sisters: frozenset[str] = frozenset()
    #: The families with a plain mister among their men (`told_apart.mister_families`).
    mister_families: frozenset[str] = frozenset()

    @classmethod
    def read(
        cls,
        together: Mapping[tuple[int, int], Together],
        given_words: Iterable[str],
        words_of: Mapping[int, Iterable[str]],
    ) -> Evidence:
        """The evidence of the story's meetings of names (`words_of`: each name's words)."""
        evidence = cls(
            given_words=frozenset(given_words),
            words_of={i: frozenset(words) for i, words in words_of.items()},
        )
        for (a, b), met in together.items():
            if met.sentence:
                evidence.apart.setdefault(a, {})[b] = met.sentence
                evidence.apart.setdefault(b, {})[a] = met.sentence
            if met.apposition:
                evidence.restated.append((met.apposition, a, b))
            if met.parted:
                evidence.parted |= {frozenset((a, b))}
        evidence.restated.sort(key=lambda r: (-r[0], r[1], r[2]))
        return evidence

    def seen_apart(self, a: Person, b: Person) -> bool:
        """Whether the two met in sentences often enough to be two people: their different
        names ("De Lacey" and Felix), or, three times as often, two forms of one name ("Mr.
        Stubb" and "Stubb", which a speaker and the narration may use side by side); or the
        writer said they are two."""
        if self.declined_by_writer(a, b):
            return True
        others = set(b.members)
        different = alike = 0
        for member in a.members:
            for other, count in self.apart.get(member, {}).items():
                if other not in others:
                    continue
                if self.words_of.get(member, frozenset()) & self.words_of.get(other, frozenset()):
                    alike += count
                else:
                    different += count
        least = min(a.count, b.count)
        return different >= max(APART_SENTENCES, APART_SHARE * least) or alike >= max(
            APART_SENTENCES, SAME_NAME_APART * APART_SHARE * least
        )

    def daughter_and_wife(self, a: Person, b: Person) -> bool:
        """Whether the two are a "Miss" and a "Mrs." by a family name alone ("Miss
        Honeychurch", "Mrs. Honeychurch"): never one woman, so the wife is no one a name of the
        daughter's might be instead (Lucy's "Miss Honeychurch", in *A Room with a View*)."""
        return not (a.given or b.given) and self.names_conflict(a, b)

    @cached_property
    def in_the_text(self) -> Evidence:
        """This evidence without the pairs the writer kept apart: what the story itself says.
        A name the writer declines for one carrier still has that carrier to be ambiguous
        with; "Charles", kept apart from Charles Musgrove, is not Charles Hayter's for it."""
        return replace(self, declined=self.parted)

    def declined_by_writer(self, a: Person, b: Person) -> bool:
        """Whether the writer kept a name of `a` apart from a name of `b` (or the story
        tells the two apart: `parted`)."""
        return bool(self.declined) and any(
            frozenset({mine, theirs}) in self.declined for mine in a.members for theirs in b.members
        )

    def alone(self, person: Person) -> int:
        """How often the story writes a given name of `person` alone."""
        return sum(self.given_alone.get(word, 0) for word in person.given)

    def met(self, a: Person, b: Person) -> int:
        """In how many sentences of narration names of `a` and of `b` met."""
        others = set(b.members)
        return sum(
            count
            for member in a.members
            for other, count in self.apart.get(member, {}).items()
            if other in others
        )

    def conflict(self, a: Person, b: Person) -> bool:
        """Whether `a` and `b` are two people (by their names, their titles, or their
        meetings)."""
        return self.names_conflict(a, b) or titles_differ(a, b) or self.seen_apart(a, b)

    def names_conflict(self, a: Person, b: Person, marriage: bool = True) -> bool:
        """Whether the names of `a` and `b` cannot be one person's in this story
        (`people.names_conflict`), or the writer said they are two."""
        if self.declined_by_writer(a, b) or eldest_and_younger(a, b, self.sisters):
            return True
        if knight_and_namesake(a, b, self.mister_families):
            return True
        if names_conflict(a, b, self.given_words, marriage, self.lone_families, met=False):
            return True
        return head_and_formal(a, b) and self.met(a, b) > 0

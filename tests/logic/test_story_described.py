"""A character's name with a common word said of them before it ("the Great Oz"), held by
the cast for no one, suggested as that character's."""

from __future__ import annotations

from collections import Counter

from loci.toolsets.story.company import Company
from loci.toolsets.story.described import described_suggestions, describing_words
from loci.toolsets.story.entity import Entity, Seen

TEXT = (
    "The Great Oz sat on his throne. It was a great hall, and Oz was a great wizard, said the "
    "great green Guardian. Dorothy asked the Great Oz for help. King Crow flew away. "
    "Injun Joe hid in the great cave, and the Land of Oz was green."
)


def _entity(number: int, name: str, kind: str, mentions: int = 10) -> Entity:
    return Entity(number, name, kind, mentions, Seen(0, ""), [], [name], [number])


CAST = [_entity(1, "Oz", "character", 150), _entity(2, "Dorothy", "character", 300)]


def test_a_name_with_a_common_word_before_it_is_suggested_for_the_character() -> None:
    entities = [*CAST, _entity(3, "Great Oz", "unknown", 19)]
    found = described_suggestions(entities, CAST, Company(), TEXT)
    assert [(s.action, s.name, s.other, s.mentions) for s in found] == [
        ("merge", "Oz", "Great Oz", 19)
    ]
    assert "'great' said before it" in found[0].reason


def test_titles_given_names_and_a_domain_are_no_words_said_of_someone() -> None:
    assert describing_words(["great"], TEXT)
    assert not describing_words(["king"], TEXT)  # a title: "King Crow" is a king
    assert not describing_words(["joe"], TEXT)  # a given name
    assert not describing_words(["green"], "Mr. Green came. Green sat. It was green.")
    entities = [*CAST, _entity(3, "Land of Oz", "other", 11), _entity(4, "King Oz", "other", 8)]
    assert described_suggestions(entities, CAST, Company(), TEXT) == []


def test_no_suggestion_for_a_character_two_carry_met_in_a_sentence_or_said_seldom() -> None:
    twice = [*CAST, _entity(4, "Oz", "character", 5)]
    guest = _entity(3, "Great Oz", "unknown", 19)
    assert described_suggestions([*twice, guest], twice, Company(), TEXT) == []
    met = Company(sentence={3: Counter({1: 2}), 1: Counter({3: 2})})
    assert described_suggestions([*CAST, guest], CAST, met, TEXT) == []
    seldom = _entity(3, "Great Oz", "unknown", 2)
    assert described_suggestions([*CAST, seldom], CAST, Company(), TEXT) == []
    listed = _entity(3, "Great Oz", "character", 19)  # the cast holds it for someone
    assert described_suggestions([*CAST, listed], CAST, Company(), TEXT) == []

"""A woman called by her place in a family or her calling and her family name, and the one
married woman of that family: one woman, where the story never names the two together."""

from __future__ import annotations

from collections import Counter

from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.suggestions import people_of
from loci.toolsets.story.womens_titles import womens_title_suggestions


def _character(number: int, aliases: list[str], mentions: int) -> Entity:
    return Entity(number, aliases[0], "character", mentions, Seen(0, ""), [], aliases)


def _suggested(characters: list[Entity], met: dict[tuple[int, int], int]) -> list[tuple[str, str]]:
    company = Company()
    for (a, b), count in met.items():
        company.sentence.setdefault(a, Counter())[b] += count
        company.sentence.setdefault(b, Counter())[a] += count
    found = womens_title_suggestions(characters, people_of(characters, company), company)
    return [(s.name, s.other) for s in found]


#: Jane Eyre: Jane says "Aunt Reed" to the Mrs. Reed of the narration, never beside her.
REEDS = [
    _character(1, ["Mrs. Reed"], 81),
    _character(2, ["Aunt Reed"], 6),
    _character(3, ["John", "John Reed", "Master Reed"], 85),
    _character(4, ["Georgiana", "Georgiana Reed", "Miss Georgiana"], 44),
]


def test_an_aunt_by_family_name_is_its_one_married_woman() -> None:
    assert _suggested(REEDS, {(1, 3): 9, (2, 4): 1}) == [("Mrs. Reed", "Aunt Reed")]
    (found,) = womens_title_suggestions(REEDS, people_of(REEDS, Company()), Company())
    assert "'Aunt Reed' is the only aunt of the Reed family" in found.reason
    # The less mentioned goes into the more: a nurse named more than "Mrs Rooke".
    rookes = [_character(1, ["Nurse Rooke", "Rooke"], 7), _character(2, ["Mrs Rooke"], 3)]
    assert _suggested(rookes, {}) == [("Nurse Rooke", "Mrs Rooke")]


def test_an_aunt_named_beside_the_married_woman_or_one_of_several_is_someone_else() -> None:
    # Little Women: Aunt March and Mrs. March meet in sentences of the narration.
    marches = [_character(1, ["Mrs. March"], 154), _character(2, ["Aunt March"], 84)]
    assert _suggested(marches, {(1, 2): 1}) == []
    # Two married women of the family, or two aunts of it: no telling which.
    assert _suggested([*REEDS, _character(5, ["Mrs. John Reed"], 3)], {}) == []
    assert _suggested([*REEDS, _character(5, ["Aunt Sarah Reed"], 3)], {}) == []
    # A man called "Uncle" is no one's aunt.
    assert _suggested([REEDS[0], _character(2, ["Uncle Reed"], 6)], {}) == []

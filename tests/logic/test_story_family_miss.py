""" "Miss" and a family name alone suggested for the one woman of the family who could have
been its Miss."""

from __future__ import annotations

from collections import Counter

from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.family_miss import family_miss_suggestions
from loci.toolsets.story.suggestions import people_of


def entity(number: int, aliases: list[str], mentions: int) -> Entity:
    return Entity(number, aliases[0], "character", mentions, Seen(0, ""), [], aliases, [number])


def suggested(characters: list[Entity], company: Company | None = None) -> list[tuple[str, str]]:
    company = company or Company()
    people = people_of(characters, company)
    return [(s.name, s.other) for s in family_miss_suggestions(characters, people, company)]


def test_miss_and_a_family_name_is_the_one_woman_of_it_neither_its_mrs_nor_a_lady() -> None:
    # Lady Susan: Catherine Vernon is Mrs. Vernon, Lady Susan a Lady: "Miss Vernon" is
    # Frederica.
    vernons = [
        entity(1, ["Miss Vernon"], 8),
        entity(2, ["Frederica", "Frederica Vernon", "Miss Frederica"], 84),
        entity(3, ["Mrs. Vernon", "Catherine", "Catherine Vernon"], 52),
        entity(4, ["Lady Susan", "Lady Susan Vernon"], 109),
        entity(5, ["Mr. Vernon", "Charles Vernon"], 33),
    ]
    assert suggested(vernons) == [("Frederica", "Miss Vernon")]
    # Named side by side, they are two women.
    company = Company()
    company.sentence.setdefault(1, Counter())[2] = 1
    company.sentence.setdefault(2, Counter())[1] = 1
    assert suggested(vernons, company) == []


def test_a_daughter_married_into_another_family_may_have_been_its_miss() -> None:
    # Little Women: Meg is Mrs. Brooke at the end, Miss March before; with Jo and Beth,
    # "Miss March" is any of them.
    marches = [
        entity(1, ["Miss March"], 20),
        entity(2, ["Meg", "Meg March", "Mrs. Brooke"], 700),
        entity(3, ["Jo", "Jo March"], 1300),
        entity(4, ["Mrs. March"], 150),
    ]
    assert suggested(marches) == []
    assert suggested([marches[0], marches[1], marches[3]]) == [("Meg", "Miss March")]

"""A married name alone and the one woman its family has by name: the family's wife, where
the story tells her so."""

from __future__ import annotations

from collections import Counter

from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.family_wife import family_wife_suggestions
from loci.toolsets.story.suggestions import people_of


def _character(number: int, aliases: list[str], mentions: int) -> Entity:
    return Entity(number, aliases[0], "character", mentions, Seen(0, ""), [], aliases)


def _company(met: dict[tuple[int, int], int]) -> Company:
    company = Company()
    for (a, b), count in met.items():
        company.sentence.setdefault(a, Counter())[b] += count
        company.sentence.setdefault(b, Counter())[a] += count
    return company


def _suggested(
    characters: list[Entity],
    met: dict[tuple[int, int], int],
    others: list[Entity] | None = None,
    text: str = "",
) -> list[tuple[str, str]]:
    company = _company(met)
    people = people_of(characters, company)
    everyone = [*characters, *(others or [])]
    found = family_wife_suggestions(everyone, characters, people, company, text)
    return [(s.name, s.other) for s in found]


#: The Great Gatsby: "Mrs. Wilson" is Myrtle, named with George Wilson, her husband.
WILSONS = [
    _character(1, ["Myrtle", "Myrtle Wilson"], 23),
    _character(2, ["Wilson", "George Wilson", "George B. Wilson"], 61),
    _character(3, ["Mrs. Wilson"], 19),
    _character(4, ["Tom", "Tom Buchanan"], 194),
]


def test_a_married_name_goes_to_the_one_woman_of_its_family_named_with_its_man() -> None:
    met = {(1, 2): 2, (1, 4): 6, (3, 4): 3}
    assert _suggested(WILSONS, met) == [("Myrtle", "Mrs. Wilson")]
    company = _company(met)
    found = family_wife_suggestions(WILSONS, WILSONS, people_of(WILSONS, company), company)
    assert "the only woman of it the story names" in found[0].reason
    assert "'Wilson' in 2 sentences" in found[0].reason


def test_a_daughter_is_no_married_name_of_her_family() -> None:
    # Little Women: Sallie Gardiner, no man of her family named, is no Mrs. Gardiner.
    gardiners = [
        _character(1, ["Sallie", "Sallie Gardiner"], 50),
        _character(2, ["Mrs. Gardiner"], 5),
    ]
    assert _suggested(gardiners, {}) == []
    # A family the story writes a "Miss" of has a daughter by title: which woman "Mrs." is,
    # the names do not say.
    miss = [_character(9, ["Miss Wilson"], 2)]
    assert _suggested(WILSONS, {(1, 2): 2}, others=miss) == []
    # Named in a sentence with the married name, she is another woman.
    assert _suggested(WILSONS, {(1, 2): 2, (1, 3): 1}) == []
    # Never named with a man of the family, she is no one's wife the story tells.
    assert _suggested(WILSONS, {(1, 4): 6}) == []
    # Called his daughter (or sister, or niece), she is not his wife.
    for told in ("and his daughter Myrtle was small", "Wilson\u2019s sister,\nMyrtle Wilson, came"):
        assert _suggested(WILSONS, {(1, 2): 2}, text=told) == [], told
    assert _suggested(WILSONS, {(1, 2): 2}, text="his wife Myrtle") == [("Myrtle", "Mrs. Wilson")]
    # Given a mother (or a father, an uncle, an aunt), she is a child of the family, whose
    # "Mrs." may be that mother: Daddy-Long-Legs' Julia Pendleton and her uncle Jervis.
    for told in ("Myrtle's mother says he is unbalanced", "Myrtle\u2019s uncle called"):
        assert _suggested(WILSONS, {(1, 2): 2}, text=told) == [], told


def test_a_woman_named_less_often_or_by_another_family_name_is_not_the_wife() -> None:
    # Anne of Green Gables: a Laura Spencer named twice is no "Mrs. Spencer" met 34 times.
    spencers = [
        _character(1, ["Laura Spencer"], 2),
        _character(2, ["Richard Spencer"], 5),
        _character(3, ["Mrs. Spencer"], 34),
    ]
    assert _suggested(spencers, {(1, 2): 1}) == []
    # Jane Eyre: Jane, "Jane Rochester" at the end only, is no "Mrs. Rochester" of before.
    rochesters = [
        _character(1, ["Jane", "Jane Eyre", "Jane Rochester"], 400),
        _character(2, ["Mr. Rochester", "Edward Rochester"], 300),
        _character(3, ["Mrs. Rochester"], 10),
    ]
    assert _suggested(rochesters, {(1, 2): 40}) == []
    # Two women of the family by name: which is its wife, the names do not say.
    two = [*WILSONS, _character(5, ["Catherine", "Catherine Wilson"], 30)]
    assert _suggested(two, {(1, 2): 2, (5, 2): 1}) == []


def test_a_miss_or_a_lady_by_her_own_name_is_no_married_name_of_her_family() -> None:
    # Lady Susan: "Mrs. Vernon" is Catherine Vernon; Lady Susan Vernon is a lady in her own
    # right, and Frederica, "Miss Frederica" (the "Miss Vernon" of the story), a daughter.
    vernons = [
        _character(1, ["Lady Susan", "Lady Susan Vernon", "Susan Vernon"], 97),
        _character(2, ["Frederica", "Frederica Vernon", "Miss Frederica"], 84),
        _character(3, ["Catherine", "Catherine Vernon"], 17),
        _character(4, ["Mr. Vernon", "Charles Vernon"], 28),
        _character(5, ["Mrs. Vernon"], 31),
    ]
    miss = [_character(9, ["Miss Vernon"], 8)]
    met = {(3, 4): 1, (1, 4): 5}
    assert _suggested(vernons, met, others=miss) == [("Catherine", "Mrs. Vernon")]
    company = _company(met)
    found = family_wife_suggestions(
        [*vernons, *miss], vernons, people_of(vernons, company), company
    )
    assert "'Lady Susan', 'Frederica'" in found[0].reason
    assert "in 1 sentence" in found[0].reason and "1 sentences" not in found[0].reason
    # Named under half as often as the married name, she is not offered it.
    fewer = [*vernons[:2], _character(3, ["Catherine", "Catherine Vernon"], 15), *vernons[3:]]
    assert _suggested(fewer, met, others=miss) == []
    # A "Miss Vernon" no woman answers to by name may be the one named: nothing is offered.
    untitled = [_character(2, ["Frederica", "Frederica Vernon"], 84), *vernons[2:]]
    assert _suggested(untitled, met, others=miss) == []

"""A name the story says with "old" or "young" as a habit ("old Pew") suggested as its own."""

from __future__ import annotations

from loci.toolsets.story.aged import aged_suggestions
from loci.toolsets.story.entity import Entity, Seen


def _character(number: int, *aliases: str) -> Entity:
    return Entity(number, aliases[0], "character", 10, Seen(0, ""), [], list(aliases))


def test_a_name_said_with_old_again_and_again_is_suggested_as_its_alias() -> None:
    # Treasure Island: "old Pew", written four times, is counted as "Pew" and listed nowhere.
    text = (
        "Old Pew tapped up the road. Black Dog ran, and old Pew cursed him.\n\n"
        "They left old Pew behind on the road. Pew was blind.\n\n"
        "Nobody mourned old Pew; the young man said nothing of him."
    )
    pew = _character(1, "Pew", "Blind Pew")
    dog = _character(2, "Black Dog")
    found = aged_suggestions(text, [pew, dog])
    assert [(s.action, s.name, s.other, s.mentions) for s in found] == [
        ("alias", "Pew", "old Pew", 4)
    ]
    assert "Old Pew tapped up the road." in found[0].evidence
    assert "'Pew', a name of 'Pew' and of no other character, with 'old'" in found[0].reason
    # Held already, it is suggested no more; written twice, it is no habit.
    assert aged_suggestions(text, [_character(1, "Pew", "old Pew"), dog]) == []
    assert aged_suggestions(text.replace("old Pew", "Pew", 2), [pew, dog]) == []


def test_a_name_said_with_both_old_and_young_names_two_generations() -> None:
    text = "Old Osborne frowned. " * 3 + "Young Osborne laughed. " * 3
    assert aged_suggestions(text, [_character(1, "Osborne", "Mr. Osborne")]) == []


def test_a_word_two_characters_names_hold_is_no_ones() -> None:
    # "young Hawkins" in a story with a Mrs. Hawkins may be either's child.
    text = "Young Hawkins ran. " * 3
    jim = _character(1, "Jim", "Hawkins", "Jim Hawkins")
    assert [s.other for s in aged_suggestions(text, [jim])] == ["young Hawkins"]
    assert aged_suggestions(text, [jim, _character(2, "Mrs. Hawkins")]) == []


def test_a_titled_name_one_character_holds_is_theirs_though_another_carries_its_word() -> None:
    # A Room with a View: "old Mr. Emerson" (9 times) is the one "Mr. Emerson", George's father.
    text = "Old Mr. Emerson nodded. " * 3
    father = _character(1, "Mr. Emerson", "Emerson")
    george = _character(2, "George", "George Emerson", "Mr. George Emerson")
    found = aged_suggestions(text, [father, george])
    assert [(s.name, s.other) for s in found] == [("Mr. Emerson", "old Mr. Emerson")]
    # Two who hold the titled name, or the son said "young Mr. Emerson" too: no one's.
    assert aged_suggestions(text, [father, _character(2, "George", "Mr. Emerson")]) == []
    both = text + "Young Mr. Emerson smiled. " * 3
    assert aged_suggestions(both, [father, george]) == []

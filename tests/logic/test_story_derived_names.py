"""Names a character goes by that the story writes only inside longer ones."""

from __future__ import annotations

from loci.toolsets.story import derived_names
from loci.toolsets.story.entity import Entity, Seen


def entity(number: int, *aliases: str) -> Entity:
    return Entity(number, aliases[0], "character", 10, Seen(0, ""), [], list(aliases))


def test_a_wife_called_by_her_husbands_name_is_not_given_his_name() -> None:
    # Sense and Sensibility: Lucy, "Mrs. Robert Ferrars", was listed as "Robert Ferrars" too.
    lucy = entity(1, "Lucy", "Mrs. Robert Ferrars", "Lucy Ferrars")
    robert = entity(2, "Robert", "Mr. Ferrars")
    laura = entity(3, "Mrs. Laura Lyons")
    derived_names.add([lucy, robert, laura], {"Lucy": 9, "Mrs. Robert Ferrars": 2})
    assert "Robert Ferrars" not in lucy.aliases
    assert laura.derived == ["Laura Lyons"]  # her own given name: hers


def test_a_full_names_given_name_is_listed_when_no_one_else_carries_it() -> None:
    # Anne of Green Gables writes "Tillie Boulter" four times and "Tillie" alone never: a
    # writer asking for Tillie means her. Two Bens share theirs; a wife's given name in "Mrs.
    # Cecil Forrester" is her husband's; "Contessa" is a title; a name written once gives none.
    tillie, ben, ben_w = entity(1, "Tillie Boulter"), entity(2, "Ben Rogers"), entity(3, "Ben")
    wife, contessa = entity(4, "Mrs. Cecil Forrester"), entity(5, "Contessa Baroncelli")
    sally = entity(6, "Sally Oates")
    written = {
        "Tillie Boulter": 4,
        "Ben Rogers": 5,
        "Ben": 30,
        "Mrs. Cecil Forrester": 3,
        "Contessa Baroncelli": 2,
        "Sally Oates": 1,
    }
    derived_names.add([tillie, ben, ben_w, wife, contessa, sally], written)
    assert tillie.derived == ["Tillie", "Boulter"]
    assert "Ben" not in ben.derived
    assert wife.derived == ["Forrester"]
    assert contessa.derived == ["Baroncelli"]
    assert sally.derived == []


def test_a_title_and_an_initial_give_no_initial_alone() -> None:
    # Emma, Lady Susan: "Mr. E." and "Mrs. M." were listed as "E" and "M" too.
    husband, wife = entity(1, "Mr. E."), entity(2, "Mrs. M.")
    derived_names.add([husband, wife], {"Mr. E.": 11, "Mrs. M.": 1})
    assert husband.derived == [] and wife.derived == []

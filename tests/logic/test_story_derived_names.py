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

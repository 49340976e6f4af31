"""A title and an initial ("Mr. E.") suggested for the one character so called, never joined
by the cast or accepted by loci at import."""

from __future__ import annotations

from loci.toolsets.story.abbreviated import abbreviated_suggestions, is_abbreviation
from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.kinds import Kind


def entity(number: int, aliases: list[str], mentions: int, kind: Kind = "character") -> Entity:
    return Entity(number, aliases[0], kind, mentions, Seen(0, ""), [], aliases, [number])


def test_a_title_and_an_initial_is_the_one_character_so_called() -> None:
    # Emma: Mrs. Elton's "Mr. E." is her husband, the story's one Mr. of an E family.
    characters = [
        entity(1, ["Mr. Elton", "Philip Elton"], 300),
        entity(2, ["Mrs. Elton", "Augusta"], 250),
        entity(3, ["Mr. Knightley"], 400),
        entity(4, ["Mr. John Knightley", "John Knightley"], 60),
        entity(5, ["Emma", "Miss Woodhouse"], 800),
    ]
    guests = [
        entity(11, ["Mr. E."], 11),
        entity(12, ["Mr. K."], 1, "unknown"),  # Mr. Knightley or Mr. John Knightley
        entity(13, ["Miss E."], 2),  # no Miss of an E family: Emma is a Woodhouse
        entity(14, ["Mrs. E."], 3, "place"),  # whatever its initial, no person's
    ]
    found = abbreviated_suggestions([*characters, *guests], characters)
    assert [(s.action, s.name, s.other, s.mentions) for s in found] == [
        ("merge", "Mr. Elton", "Mr. E.", 11)
    ]
    assert "the story's only Mr. of a family name beginning with 'E'" in found[0].reason


def test_only_a_title_and_one_initial_is_an_abbreviation() -> None:
    assert is_abbreviation("Mr. E.") and is_abbreviation("Miss S.")
    assert not any(is_abbreviation(n) for n in ("Mr. Elton", "E.", "R. De Courcy", "Mr. E"))

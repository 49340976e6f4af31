"""A name two people carry, read as a reader does: the one of them named last before it."""

from __future__ import annotations

from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.named_last import named_last
from loci.toolsets.story.suggestions import same_person_suggestions

#: Tom Sawyer's two Joes, the bare name mostly the boy's: Joe Harper is named last before
#: three of the four "Joe"s, Injun Joe before one (a "Joe" inside "Injun Joe" is his name).
STORY = (
    "Tom met Joe Harper at the school. Joe took out a pin. Tom and Joe played with the tick.\n\n"
    "That night Injun Joe came to the graveyard. Injun Joe said nothing. \u201cLord, Joe!\u201d "
    "said Potter.\n\nNext day Joe Harper ran to the river. Joe swam across, and Tom cheered."
)


def _entity(number: int, aliases: list[str], mentions: int) -> Entity:
    return Entity(number, aliases[0], "character", mentions, Seen(0, ""), [], aliases, [number])


def test_each_bare_name_counts_for_the_carrier_named_last_before_it() -> None:
    found = named_last(STORY, "Joe", {1: ["Joe Harper"], 2: ["Injun Joe"]})
    assert dict(found.counts) == {1: 3, 2: 1}
    start, end = found.closest[1]
    assert STORY[start:end] == "Joe Harper at the school. Joe"


def test_a_bare_name_is_suggested_for_the_carrier_named_last_before_it_far_more_often() -> None:
    characters = [
        _entity(1, ["Joe Harper"], 19),
        _entity(2, ["Injun Joe"], 65),
        _entity(3, ["Joe"], 84),
        _entity(4, ["Tom"], 800),
    ]
    many = (STORY + "\n\n") * 2  # six after Joe Harper, two after Injun Joe
    suggested = same_person_suggestions(characters, Company(), many)
    assert [(s.name, s.other) for s in suggested] == [("Joe Harper", "Joe")]
    assert "6 after 'Joe Harper'" in suggested[0].reason
    assert "2 after 'Injun Joe'" in suggested[0].reason
    assert suggested[0].evidence == "Tom met Joe Harper at the school. Joe took out a pin."


def test_no_carrier_is_suggested_when_neither_is_named_last_far_more_often() -> None:
    characters = [
        _entity(1, ["Joe Harper"], 19),
        _entity(2, ["Injun Joe"], 65),
        _entity(3, ["Joe"], 84),
    ]
    even = (
        "Joe Harper came. Joe sat. Injun Joe came. Joe sat. Joe Harper ran. Joe swam. "
        "Injun Joe hid. Joe waited. Joe Harper sang. Joe laughed. Injun Joe fled. Joe slept."
    )
    assert same_person_suggestions(characters, Company(), even) == []
    assert same_person_suggestions(characters, Company(), STORY) == []  # too few to say

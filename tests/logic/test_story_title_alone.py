"""A title the story says alone of someone it never names ("the Marquis") suggested as a
character of its own."""

from __future__ import annotations

from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.title_alone import sure_titles_alone, title_alone_suggestions


def _character(number: int, *aliases: str) -> Entity:
    return Entity(number, aliases[0], "character", 10, Seen(0, ""), [], list(aliases))


def _story(title: str, speaking: int, silent: int) -> str:
    said = [f'"It is nothing," said {title} to Gaspard, day {day}.' for day in range(speaking)]
    still = [f"The carriage of {title} rolled on, day {day}." for day in range(silent)]
    return "\n\n".join(said + still)


def test_a_title_said_alone_of_someone_who_speaks_is_suggested_as_a_character() -> None:
    text = _story("the Marquis", 6, 18)
    gaspard = _character(1, "Gaspard")
    found = title_alone_suggestions(text, [gaspard], [gaspard])
    assert [(s.action, s.name, s.other, s.mentions) for s in found] == [
        ("kind", "Marquis", "character", 24)
    ]
    assert "speaks 6 times" in found[0].reason
    assert "said the Marquis to Gaspard" in found[0].evidence


def test_a_title_alone_is_no_character_of_its_own_when_rare_silent_carried_or_common() -> None:
    gaspard = _character(1, "Gaspard")
    assert title_alone_suggestions(_story("the Marquis", 6, 10), [gaspard], [gaspard]) == []
    assert title_alone_suggestions(_story("the Marquis", 3, 30), [gaspard], [gaspard]) == []
    # A character titled so by name carries it: it is his epithet, not someone else.
    marquis = _character(2, "Marquis de Sade")
    cast = [gaspard, marquis]
    assert title_alone_suggestions(_story("the Marquis", 6, 18), cast, cast) == []
    # A title in lower case is a calling, not a name ("the sergeant" of a squad).
    assert title_alone_suggestions(_story("the sergeant", 6, 18), [gaspard], [gaspard]) == []


def test_the_import_takes_a_title_said_alone_of_someone_for_a_name_as_written() -> None:
    gaspard = _character(1, "Gaspard")
    assert sure_titles_alone(_story("the Marquis", 6, 18), [gaspard], [gaspard]) == ["the Marquis"]
    assert sure_titles_alone(_story("the Marquis", 3, 30), [gaspard], [gaspard]) == []

"""What a story's sentences say of a name, read by the real NER: who speaks is someone, even
when the story names them by "the" and a word ("said the Scarecrow"), and a word set in
capitals after a name is none of it."""

from __future__ import annotations

import pytest

from loci.app import App
from loci.errors import NotFoundError
from loci.toolsets.story.lookup import character

ROAD = [
    '"Good day," said the Scarecrow, in a rather husky voice. Nell Quarry stared at him.',
    '"Did you speak?" asked Nell Quarry. "Certainly," answered the Scarecrow.',
    "The Scarecrow said nothing more, and they walked on past the Gull, a ship, called the "
    "Gull by everyone on the quay.",
    '"I am very tired," replied the Scarecrow. Nell Quarry laughed, and the Gull sailed.',
]


def test_a_name_after_the_that_speaks_is_a_character_and_a_ship_is_not(app: App) -> None:
    for number, text in enumerate(ROAD * 3):
        app.story.continue_story("road", "", f"{text} ({number})")
    app.story.resolve_cast("road")  # as an import does at its end
    scarecrow = character(app.story, "road", "Scarecrow")
    assert scarecrow.kind == "character"
    assert scarecrow.mentions >= 12
    # "called the Gull" names a ship: a verb that also names things gives it no line.
    assert kind_of(app, "road", "Gull") != "character"


def test_a_word_in_capitals_after_a_name_is_not_part_of_it(app: App) -> None:
    letters = [
        '"PRIVATE: for the hands of G. J. Utterson ALONE," the envelope said. Utterson read it.',
        "Mr. Utterson sat by the fire, and G. J. Utterson was the name he signed with.",
    ]
    for number, text in enumerate(letters * 3):
        app.story.continue_story("letters", "", f"{text} ({number})")
    app.story.resolve_cast("letters")
    signed = character(app.story, "letters", "G. J. Utterson")
    assert signed.name == "G. J. Utterson"
    assert not any("ALONE" in alias for alias in signed.aliases)
    with pytest.raises(NotFoundError):
        character(app.story, "letters", "G. J. Utterson ALONE")


def kind_of(app: App, session: str, name: str) -> str | None:
    """The kind of the entity `name` is a name of, or None when the story names no such
    entity yet (never met, or not confirmed)."""
    try:
        return character(app.story, session, name).kind
    except NotFoundError:
        return None

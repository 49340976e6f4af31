"""Names the text gives as someone's name ("he's called Nut") read as names, and the things
it names ("a game called Yes", "I called it Violet Vale") not."""

from __future__ import annotations

from loci.toolsets.story.mentions import Extractor
from loci.toolsets.story.naming import given

SQUIRRELS = (
    "Dickon came over on the pony this morning, with two squirrels in his pockets. "
    "\"This here one he's called Nut an' this here other one's called Shell.\" "
    "Then Nut leaped on to his shoulder, and the pony whose name was Jump looked on."
)


def _given(text: str) -> list[str]:
    return [text[a:b] for a, b in given(text)]


def test_a_name_given_as_someones_is_found() -> None:
    assert _given(SQUIRRELS) == ["Nut", "Shell", "Jump"]
    assert _given("There's a lad named Cartwright who runs errands.") == ["Cartwright"]
    assert _given("They called him Long John.") == ["Long John"]
    assert _given("and her name was Mrs. Medlock.") == ["Mrs. Medlock"]
    assert _given("The butler, whose name turned out to be Hobbs, let me in.") == ["Hobbs"]
    assert _given("\"An' my name's Ben\nWeatherstaff.\"") == ["Ben"]
    assert _given("he said, rubbing the cub's head. \"It's named Captain.\"") == ["Captain"]


def test_a_title_said_of_a_person_or_opening_a_longer_name_is_not_given_as_a_name() -> None:
    # His title, which `called` reads as his epithet; a name going on past a line break.
    assert _given("The men of the Guard called him Warden, or Warden Thorne.") == []
    assert _given("she told them my name was Prince\nCharming.") == []


def test_a_thing_the_text_names_is_no_ones_name() -> None:
    for thing in (
        "They played a Game called Yes and No.",
        "The place was named Green Gables by old Matthew.",
        "There was a ship called the Pequod.",
        "It came on a day called Sunday.",
        "The brook was lovely and I called it Violet Vale.",
        "and called out to the dog.",
        "I remember, there are birds called\nWendies.",
    ):
        assert _given(thing) == [], thing


def test_the_extractor_marks_a_name_given_as_named_and_adds_it_if_ner_missed_it() -> None:
    found = Extractor().mentions(SQUIRRELS, ["Dickon"])
    named = {m.surface for m in found if m.named}
    assert named == {"Nut", "Shell", "Jump"}
    assert not any(m.named for m in found if m.surface == "Dickon")
    fox = Extractor().mentions('"It\'s named Captain." Captain trotted after him.', [])
    assert [(m.surface, m.named) for m in fox] == [("Captain", True), ("Captain", False)]
    first_nut = min((m for m in found if m.surface == "Nut"), key=lambda m: m.start)
    assert SQUIRRELS[first_nut.start : first_nut.end] == "Nut" and first_nut.named

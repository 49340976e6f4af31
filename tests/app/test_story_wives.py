"""A married name alone ("Mrs. Pruett") suggested for the woman the story calls the wife of
the man of that name ("Amos Pruett ... and his wife Lettie"), and accepted in one step."""

from __future__ import annotations

from loci.app import App
from loci.toolsets.story.curation import correct
from loci.toolsets.story.lookup import character
from loci.toolsets.story.suggestions import suggest
from tests.storytext import told, written

FARM = [
    "Amos Pruett was a broad red man who laughed at everything, and his wife Lettie was "
    "small and quick.",
    '"Voke," said Mrs. Pruett, before Nell had put the basket down. Amos Pruett frowned.',
    "Lettie Pruett untied her apron and sat down at the table. Nell told her everything.",
    "Mr. Pruett looked at the floor, and Mrs. Pruett clapped her hands. Nell laughed.",
]
DAUGHTER = [
    "Amos Pruett was a broad red man, and his daughter Lettie was small and quick.",
    "Mrs. Pruett sighed at the stove, and Amos Pruett frowned at the window.",
    "Lettie Pruett untied her apron and ran out to the yard. Nell followed her.",
]


def test_a_married_name_is_suggested_for_the_woman_called_its_husbands_wife(app: App) -> None:
    written(app, "farm", FARM)  # a piece at a time: no import's end
    wife = character(app.story, "farm", "Lettie Pruett")
    assert "Mrs. Pruett" not in wife.aliases  # a daughter could bear the name too
    found = suggest(app.story, "farm").suggestions
    stated = next(s for s in found if s.other == "Mrs. Pruett")
    assert (stated.action, stated.name) == ("merge", wife.name)
    assert "his wife" in stated.reason and stated.mentions == 6
    merged = correct(app.story, "farm", stated.action, stated.name, stated.other)
    assert "Mrs. Pruett" in merged.aliases and merged.mentions == wife.mentions + 6


def test_a_married_name_of_the_woman_called_its_husbands_wife_is_hers_after_an_import(
    app: App,
) -> None:
    told(app, "farm", FARM)
    wife = character(app.story, "farm", "Lettie Pruett")
    assert "Mrs. Pruett" in wife.aliases and wife.kind == "character"
    assert not any(s.other == "Mrs. Pruett" for s in suggest(app.story, "farm").suggestions)


def test_a_daughter_of_the_name_is_not_suggested_for_his_wife(app: App) -> None:
    told(app, "farm", DAUGHTER)
    assert not any(s.other == "Mrs. Pruett" for s in suggest(app.story, "farm").suggestions)
    assert "Mrs. Pruett" not in character(app.story, "farm", "Lettie Pruett").aliases


def test_a_list_of_servants_after_his_wife_names_no_wife(app: App) -> None:
    # Jane Eyre: "John and his wife, Leah the housemaid, and Sophie the French nurse" offered
    # "Leah" as a wife.
    from loci.toolsets.story.wives import WIFE

    listed = "The household, viz., John and his wife, Leah the\nhousemaid, and Sophie the nurse."
    assert WIFE.search(listed) is None
    assert WIFE.search("Amos Pruett laughed, and his wife Lettie was small.") is not None


def test_a_married_name_goes_to_the_woman_whose_marriage_the_story_tells(app: App) -> None:
    # Sense and Sensibility: "Mrs. Willoughby" was offered to Marianne, named beside
    # Willoughby in 66 sentences; the story tells of "Mr. Willoughby's marriage with Miss Grey".
    story = [
        "Mr. Willoughby rode with Nell Quarry, and Mr. Willoughby laughed with Nell Quarry.",
        "Nell Quarry sang, and Mr. Willoughby turned her pages. Nell Quarry blushed.",
        "The talk was all of Mr. Willoughby's marriage with Miss Grey. Miss Grey was rich.",
        "Mrs. Willoughby drove out in the new carriage, and Mrs. Willoughby bowed.",
    ]
    written(app, "town", story)
    found = suggest(app.story, "town").suggestions
    married = [s for s in found if s.other == "Mrs. Willoughby"]
    assert [s.name for s in married] == ["Miss Grey"]
    assert "his marriage with her" in married[0].reason
    assert "marriage with Miss Grey" in married[0].evidence

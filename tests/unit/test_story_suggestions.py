"""Suggested corrections of the cast: each one call of `correct_character` with the mentions
it sets right, why, and a sentence of evidence; accepted in one step, and taken back."""

from __future__ import annotations

import pytest

from loci.app import App
from loci.story.curation import correct, undo
from loci.story.lookup import character
from loci.story.suggestions import suggest

VOYAGE = [
    "Captain Hawkes stood at the rail of the Gull. Captain Hawkes said nothing to anyone.",
    "The Captain watched the storm come in over the bar, and Nell Quarry brought him tea.",
    "Nell Quarry laughed at the Captain's hat. The Captain did not laugh, and Nell went below.",
    "At dawn the Captain sent the boy aloft. Captain Hawkes was pleased with the boy.",
]


@pytest.fixture
def voyage(app: App) -> App:
    for number, text in enumerate(VOYAGE * 3):
        app.story.continue_story("voyage", "", f"{text} ({number})")
    return app


def test_an_epithet_of_the_storys_one_captain_is_suggested_and_accepted_in_one_step(
    voyage: App,
) -> None:
    found = suggest(voyage.story, "voyage").suggestions
    epithet = next(s for s in found if s.other == "the Captain")
    assert (epithet.action, epithet.name, epithet.mentions) == ("alias", "Captain Hawkes", 12)
    assert "the captain" in epithet.evidence.lower() and "only captain" in epithet.reason
    assert epithet.number == 1
    before = character(voyage.story, "voyage", "Captain Hawkes").mentions
    after = correct(voyage.story, "voyage", epithet.action, epithet.name, epithet.other)
    assert after.mentions == before + 12
    again = suggest(voyage.story, "voyage")
    assert all(s.other != "the Captain" for s in again.suggestions)  # done: not suggested
    assert len(again.corrections) == 1 and again.corrections[0].startswith("#1: ")
    undo(voyage.story, "voyage")
    assert any(s.other == "the Captain" for s in suggest(voyage.story, "voyage").suggestions)

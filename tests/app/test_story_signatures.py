"""A letter signed in capitals names its writer in the cast, also when the signature opens
the next text added (an import cuts a manuscript at blank lines: a long letter's signature
often opens a piece of its own)."""

from __future__ import annotations

from loci.app import App
from loci.toolsets.story.lookup import character
from tests.app.test_story_suggestions import names_of

OPENING = "Mr. Collins came to Longbourn. Mr. Collins bowed to Mr. Bennet, and Jane smiled."
LETTER = (
    "The letter was read aloud after dinner.\n\n"
    "     I remain, dear sir, with respectful compliments to your lady and daughters, your\n"
    "     well-wisher and friend,"
)
SIGNATURE = (
    "\u201cWILLIAM COLLINS.\u201d\n\n"
    "\u201cHe seems a most conscientious young man,\u201d said Mr. Bennet."
)


def test_a_signature_opening_the_next_text_is_read_after_the_closing_before_it(
    app: App,
) -> None:
    app.story.continue_story("letters", "", OPENING)
    app.story.continue_story("letters", "", LETTER)
    app.story.continue_story("letters", "", SIGNATURE)
    held = names_of(app, "letters")
    assert any({"Mr. Collins", "William Collins"} <= aliases for aliases in held), held
    assert not any(any(a.isupper() for a in aliases) for aliases in held)
    assert character(app.story, "letters", "William Collins").mentions == 3


def test_capitals_after_no_closing_name_no_one(app: App) -> None:
    app.story.continue_story("heading", "", OPENING)
    app.story.continue_story("heading", "", "He went home to think.")
    app.story.continue_story("heading", "", "WILLIAM COLLINS.\n\nThe next day it rained.")
    held = names_of(app, "heading")
    assert not any("William Collins" in aliases for aliases in held)


def test_a_letters_reader_and_writer_are_people_of_the_cast(app: App) -> None:
    letters = [
        "Margaret Lisle lived at Bath, and Margaret Lisle wrote every week.",
        "My dearest Meg,\n\nThe house is cold and the debt is real.\n\n"
        "Thine, always, and in haste,\n\nEDMUND.",
        "Edmund's ship was spoken off Finisterre. Margaret smiled at the news.",
    ]
    for number, text in enumerate(letters * 3):
        app.story.continue_story("post", "", f"{text}\n\n({number})")
    margaret = character(app.story, "post", "Margaret Lisle")
    assert "Meg" in margaret.aliases  # the salutation's reader, Margaret by her pet name
    edmund = character(app.story, "post", "Edmund")
    assert edmund.kind == "character" and edmund.mentions == 6

"""Where a line of dialogue calls someone by name, and where a capitalised word in the same
place is an interjection."""

from __future__ import annotations

import pytest

from loci.toolsets.story.address import called
from loci.toolsets.story.mentions import Extractor


def names_called(text: str) -> list[str]:
    return [text[start:end] for start, end in called(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"Home, little Fan?" returned the boy.', ["Fan"]),
        ("\u201cWhat is this, Perkins?\u201d asked Dr. Mortimer.", ["Perkins"]),
        ('"Come, Watson," said Holmes, "the game is afoot."', ["Watson"]),
        ('"Good night, my dear Jo!"', ["Jo"]),
        ('"Tell me all, friend John."', ["John"]),
        ('"Belle," said the husband, turning to his wife.', ["Belle"]),
        ('"Mr. Holmes, I beg you to listen."', ["Mr. Holmes"]),
        # An interjection opens a line as often as a name does; only a given name counts.
        ('"Nonsense," said Jo. "Hush, child."', []),
        ('"So, you are back," she said.', []),
        ('"Sunday! You went to-day, then, Robert?"', ["Robert"]),
        # An oath, a month or a greeting is no one.
        ("\u201cOh, my God!\u201d I gasped.", []),
        ('"Come back, November!" and "Good-bye, Merry Christmas!"', []),
        # A list of places ends no spoken phrase.
        ("We went to Paris, London and Rome. It rained.", []),
        # A speaker going on after the call (a tester's "Commander", called seven times).
        ('"Two life signs, Commander. One adult."', ["Commander"]),
        ('"I heard about it, Leo. Tough break."', ["Leo"]),
        ("We went to Paris, then Rome, Italy. It rained.", []),  # narration: no call
        # A title's full stop before the name ends no call (The Sign of the Four).
        ("\u201cYou and I and\u2014yes, why, Dr. Watson is the very man.\u201d", []),
    ],
)
def test_a_name_called_in_dialogue_and_nothing_else(text: str, expected: list[str]) -> None:
    assert names_called(text) == expected


def test_a_call_marks_a_name_found_and_makes_none() -> None:
    text = '"Ha, ha!" laughed Meg March. "What is this, Perkins?" asked Meg March.'
    found = {m.surface: m.addressed for m in Extractor().mentions(text, ["Perkins"])}
    assert found == {"Meg March": False, "Perkins": True}  # "Ha" ends a phrase, and is none


def test_a_letters_salutation_on_a_line_of_its_own_addresses_its_reader() -> None:
    text = (
        "The letter came on Tuesday.\n\nMy dearest Meg,\n\nFour hundred pounds, Meg.\n\n"
        "\u201cDear Mr. Ashgrove,\n\nI write in haste.\n\n"
        "It was a dear Meg, and dearest Meg, she said."
    )
    found = [text[a:b] for a, b in called(text)]
    assert found == ["Meg", "Mr. Ashgrove"]  # prose that says "dear Meg" calls no one


def test_a_family_name_of_a_titled_name_opening_a_line_is_a_call_and_a_mention() -> None:
    text = '"Moss," he said, "is there tea?"\n\n"Nonsense," said Mrs. Moss.'
    assert names_called(text) == []  # no given name, no title: an interjection, as far as known
    assert [text[a:b] for a, b in called(text, {"moss"})] == ["Moss"]
    found = [(m.surface, m.addressed) for m in Extractor().mentions(text, ["Mrs. Moss"])]
    assert found == [("Moss", True), ("Mrs. Moss", False)]
    assert [m.surface for m in Extractor().mentions(text, [])] == ["Mrs. Moss"]


def test_the_given_name_of_a_known_full_name_called_out_is_a_mention() -> None:
    # A tester's "Harlan", of "Harlan Voss", written five times and called out once, was
    # counted nowhere: NER never took it alone.
    text = 'A voice called down. "Nobody, Harlan," she called back. Harlan went to bed at nine.'
    found = [(m.surface, m.addressed) for m in Extractor().mentions(text, ["Harlan Voss"])]
    assert ("Harlan", True) in found and ("Harlan", False) in found
    unknown = [m.surface for m in Extractor().mentions(text, ["Mrs. Voss"])]
    assert "Harlan" not in unknown  # no name the story knows says it is one


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Moby-Dick's Peleg, calling Queequeg by a name of his own.
        ('"I say, Quohog, or whatever your name is, did you ever strike a fish?"', ["Quohog"]),
        ('"All of ye, spring! Quohog! spring, thou chap with the red whiskers."', ["Quohog"]),
        # A list names people between commas too; narration calls no one.
        ('"Bring mother, Meg, and Jo to the door."', []),
        ('"I saw Tom, Dick, or Harry at the gate."', []),
        ("He waved at them, Meg, Jo, Beth, and stopped.", []),
    ],
)
def test_a_name_called_inside_a_spoken_sentence_when_asked_for(
    text: str, expected: list[str]
) -> None:
    assert [text[a:b] for a, b in called(text, within=True)] == expected
    assert names_called(text) == []  # the cast's cues do not take it

"""Where a line of dialogue calls someone by name, and where a capitalised word in the same
place is an interjection."""

from __future__ import annotations

import pytest

from loci.toolsets.story.address import called


def names_called(text: str) -> list[str]:
    return [text[start:end] for start, end in called(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"Home, little Fan?" returned the boy.', ["Fan"]),
        ("\u201cWhat is this, Perkins?\u201d asked Dr. Mortimer.", ["Perkins"]),
        ('"Come, Watson," said Holmes, "the game is afoot."', ["Watson"]),
        ('"Good night, my dear Jo!"', ["Jo"]),
        ('"Belle," said the husband, turning to his wife.', ["Belle"]),
        ('"Mr. Holmes, I beg you to listen."', ["Mr. Holmes"]),
        # An interjection opens a line as often as a name does; only a given name counts.
        ('"Nonsense," said Jo. "Hush, child."', []),
        ('"So, you are back," she said.', []),
        ('"Sunday! You went to-day, then, Robert?"', ["Robert"]),
        # An oath is no one.
        ("\u201cOh, my God!\u201d I gasped.", []),
        # A list of places ends no spoken phrase.
        ("We went to Paris, London and Rome. It rained.", []),
    ],
)
def test_a_name_called_in_dialogue_and_nothing_else(text: str, expected: list[str]) -> None:
    assert names_called(text) == expected

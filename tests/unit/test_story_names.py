"""When two ways of naming are one person."""

from __future__ import annotations

import pytest

from loci.story.names import parse, same_person


@pytest.mark.parametrize(
    ("new", "known"),
    [
        ("Darcy", "Mr. Darcy"),
        ("Lizzy", "Elizabeth"),
        ("Eliza", "Elizabeth"),
        ("Miss Eliza Bennet", "Elizabeth Bennet"),
        ("Miss Elizabeth Bennet", "Miss Elizabeth"),
        ("Kitty", "Catherine"),
        ("Mr. Charles Bingley", "Mr. Bingley"),
        ("Sir William Lucas", "Sir William"),
        ("Lady Catherine de Bourgh", "Lady Catherine"),
        ("R. Walton", "Robert Walton"),
        ("Waldman", "M. Waldman"),
    ],
)
def test_the_same_person(new: str, known: str) -> None:
    assert same_person(parse(new), parse(known))


@pytest.mark.parametrize(
    ("new", "known"),
    [
        ("Mrs. Bennet", "Mr. Bennet"),
        ("Miss Bennet", "Mrs. Bennet"),
        ("Jane Bennet", "Mr. Bennet"),
        ("Miss Bingley", "Mr. Bingley"),
        ("Colonel Fitzwilliam", "Fitzwilliam Darcy"),
        ("Fitzwilliam Darcy", "Colonel Fitzwilliam"),
        ("Miss Bennet", "Miss Elizabeth"),
        ("Lucas Lodge", "Charlotte Lucas"),
        ("William Frankenstein", "Victor Frankenstein"),
    ],
)
def test_different_people(new: str, known: str) -> None:
    assert not same_person(parse(new), parse(known))

"""The facts of the characters in play, as the story's context gives them under a budget."""

from __future__ import annotations

from loci.toolsets.story.assembly import Budget, _facts
from loci.toolsets.story.entity import Entity, Seen


def words(text: str) -> int:
    return len(text.split())


def character(number: int, name: str, introduction: str, mentions: int) -> Entity:
    return Entity(number, name, "character", mentions, Seen(0, introduction), [], [name])


LONG = character(1, "Mira Voss", " ".join(["word"] * 40), 50)
SHORT = character(2, "Pim", "Pim whistled.", 90)


def test_a_named_character_keeps_its_names_when_its_introduction_does_not_fit() -> None:
    chosen = _facts([LONG, SHORT], frozenset({1}), Budget(12), words)
    assert [c.part.reason for c in chosen] == [
        "Mira Voss: named in the input",
        "Pim: named in a relevant passage",
    ]
    assert chosen[0].text == "- Mira Voss (character)\n"


def test_no_one_takes_the_room_of_a_character_the_input_names() -> None:
    known = character(3, "Mira Voss", "Mira Voss smiled.", 50)
    known.aliases += ["Captain Mira Voss", "Voss"]  # nine words with its names alone
    assert _facts([known, SHORT], frozenset({3}), Budget(6), words) == []
    # One the input does not name gives way to the next.
    chosen = _facts([known, SHORT], frozenset(), Budget(6), words)
    assert [c.text for c in chosen] == ["- Pim (character): Pim whistled.\n"]


def test_every_line_is_whole_when_the_budget_holds_it() -> None:
    chosen = _facts([LONG, SHORT], frozenset({1}), Budget(100), words)
    assert chosen[0].text.endswith(" ".join(["word"] * 40) + "\n")
    assert [c.part.tokens for c in chosen] == [44, 5]

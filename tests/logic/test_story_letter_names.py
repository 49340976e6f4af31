"""Names a novel in letters gives one person: greeted by a letter headed to them, signing one
headed from them."""

from __future__ import annotations

from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.letter_names import letter_name_suggestions


def _character(number: int, aliases: list[str], mentions: int) -> Entity:
    return Entity(number, aliases[0], "character", mentions, Seen(0, ""), [], aliases)


def _letter(writer: str, reader: str, greeting: str, body: str, closing: str = "") -> str:
    return f"\n\n_{writer} to {reader}._\n\n\nLangford.\n\n\n{greeting},\u2014{body}\n\n{closing}"


#: Lady Susan, shortened: Alicia is Mrs. Johnson, greeted and signing so.
STORY = "".join(
    [
        "I\n",
        _letter("Lady Susan Vernon", "Mrs. Johnson", "My dear Alicia", "I am in town."),
        "\n\nII\n",
        _letter(
            "Mrs. Johnson", "Lady Susan Vernon", "My dear Friend", "Come.", "Yours,\n\nALICIA."
        ),
        "\n\nIII\n",
        _letter("Lady Susan Vernon", "Mrs. Johnson", "Well, my dear Alicia", "I came."),
        # A letter whose heading names no one: its signature is no one else's.
        "\n\nIV\n\n_Sir Reginald to his Son._\n\n\nMy dear Reginald,\u2014Beware.\n\n"
        "Your affectionate father,\n\nCATHERINE.\n",
    ]
)
CAST = [
    _character(1, ["Lady Susan", "Lady Susan Vernon"], 97),
    _character(2, ["Mrs. Johnson"], 14),
    _character(3, ["Alicia"], 9),
    _character(4, ["Catherine", "Catherine Vernon"], 17),
    _character(5, ["Reginald"], 72),
]


def test_a_name_greeting_or_signing_letters_headed_to_or_from_a_character_is_theirs() -> None:
    found = letter_name_suggestions(STORY, CAST)
    assert [(s.action, s.name, s.other) for s in found] == [("merge", "Mrs. Johnson", "Alicia")]
    assert "3 times" in found[0].reason and "'Alicia'" in found[0].reason
    assert found[0].evidence.startswith("_Lady Susan Vernon to Mrs. Johnson._")
    assert found[0].mentions == 9


def test_a_name_given_once_or_to_two_characters_is_not_suggested() -> None:
    once = STORY.split("\n\nIII\n")[0]  # one greeting and no signature: two letters needed
    assert letter_name_suggestions(once.replace("ALICIA.", "Yours."), CAST) == []
    # "Alicia" greeting letters headed to two people says nothing of either.
    other = STORY + _letter("Lady Susan Vernon", "Reginald", "My dear Alicia", "Oh.")
    other += _letter("Lady Susan Vernon", "Reginald", "My dear Alicia", "Ah.")
    assert letter_name_suggestions(other, CAST) == []
    # Prose naming two people on a line of its own is no heading.
    prose = "\n\nAlicia to Mrs. Johnson\n\nMy dear Alicia,\u2014Come.\n" * 3
    assert letter_name_suggestions(prose, CAST) == []

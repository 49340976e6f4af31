"""What a story's sentences say of a name, read by the real NER: who speaks is someone, even
when the story names them by "the" and a word ("said the Scarecrow"), and a word set in
capitals after a name is none of it."""

from __future__ import annotations

import pytest

from loci.app import App
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.story.curation import correct
from loci.toolsets.story.lookup import character
from tests.storytext import told

ROAD = [
    '"Good day," said the Scarecrow, in a rather husky voice. Nell Quarry stared at him.',
    '"Did you speak?" asked Nell Quarry. "Certainly," answered the Scarecrow.',
    "The Scarecrow said nothing more, and they walked on past the Gull, a ship, called the "
    "Gull by everyone on the quay.",
    '"I am very tired," replied the Scarecrow. Nell Quarry laughed, and the Gull sailed.',
]


def test_a_name_after_the_that_speaks_is_a_character_and_a_ship_is_not(app: App) -> None:
    told(app, "road", ROAD)
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
    told(app, "letters", letters)
    signed = character(app.story, "letters", "G. J. Utterson")
    assert signed.name == "G. J. Utterson"
    assert not any("ALONE" in alias for alias in signed.aliases)
    with pytest.raises(NotFoundError):
        character(app.story, "letters", "G. J. Utterson ALONE")


MOOR = [
    '"Tha\' knows nowt about it," said Martha. "Tha\' mun go out an\' play." Mary looked at '
    'her. "Does tha\' like it?" Martha asked. "Tha\' art a queer one." Dickon laughed.',
    "\"Tha's got to see th' garden,\" said Dickon, and tha' will, Mary thought. \"I've seen "
    'it," Mary said. "Tha\' hasn\'t," said Dickon. "I\'ve," said Mary, "and tha\' knows it."',
]


def test_a_dialect_word_written_with_an_apostrophe_is_no_name(app: App) -> None:
    # The Secret Garden: "Tha'", Yorkshire for "thou", opens many lines (NER takes it for a
    # person's name); inside a sentence it is written "tha'", a common word.
    told(app, "moor", MOOR * 3)
    assert kind_of(app, "moor", "Tha") != "character"
    assert kind_of(app, "moor", "I've") != "character"
    assert kind_of(app, "moor", "Dickon") == "character"


def kind_of(app: App, session: str, name: str) -> str | None:
    """The kind of the entity `name` is a name of, or None when the story names no such
    entity yet (never met, or not confirmed)."""
    try:
        return character(app.story, session, name).kind
    except NotFoundError:
        return None


def test_a_title_that_ends_a_sentence_is_not_the_title_of_the_next_name(app: App) -> None:
    story = [
        '"Where now?" asked the Captain. Nell Quarry pointed to the road.',
        "Nell Quarry laughed, and Nell Quarry walked on. Capt. Hawkes followed her.",
    ]
    told(app, "road", story)
    nell = character(app.story, "road", "Nell Quarry")
    assert nell.aliases == ["Nell Quarry", "Nell", "Quarry"]
    assert nell.derived_aliases == ["Nell", "Quarry"]
    assert "Capt. Hawkes" in character(app.story, "road", "Hawkes").aliases  # abbreviated


FERRY = [
    '"Nobody else," the Ferrywoman repeated, and she pushed off. Nobody said anything.',
    '"Too late," sighed the Ferrywoman. Ada Prewitt watched the water.',
    '"We land at dawn," the Ferrywoman announced. Nobody answered her, and Ada Prewitt slept.',
]


def test_a_line_of_dialogue_is_spoken_by_the_name_after_it_whatever_the_verb(app: App) -> None:
    told(app, "ferry", FERRY)
    assert kind_of(app, "ferry", "Ferrywoman") == "character"
    assert kind_of(app, "ferry", "Nobody") is None  # a pronoun names no one
    # The story writes her after "the"; she is found, and "the Ferrywoman" is no new name.
    assert character(app.story, "ferry", "the Ferrywoman").name == "Ferrywoman"
    with pytest.raises(InvalidInputError, match="counted already"):
        correct(app.story, "ferry", "alias", "Ferrywoman", "the Ferrywoman")


def test_a_name_ending_in_a_word_for_a_place_is_a_place(app: App) -> None:
    story = [
        "Ada Prewitt had grown up below Gull Point. Gull Point loomed, and he was grey.",
        "Gull Point watched the boats come in. Ada Prewitt waved from the quay.",
        "Lois Lane laughed at Ada Prewitt, and Lois Lane said she would row them there.",
    ]
    told(app, "coast", story)
    assert kind_of(app, "coast", "Gull Point") == "place"
    assert kind_of(app, "coast", "Lois Lane") == "character"  # a given name before it


def test_a_fen_a_scar_or_a_farm_ending_a_name_is_a_place(app: App) -> None:
    story = [
        "The house at Wetherby Fen stood a mile from the sea wall. Eleanor Thornbury wrote.",
        "Wetherby Fen was cold in December, and Eleanor Thornbury kept the accounts.",
        "Eleanor Thornbury walked out to Carrick Scar, and Carrick Scar was grey.",
        "Tobin Marsh laughed at Eleanor Thornbury, and Tobin Marsh said he would row.",
        "Hollow End Farm lay under the hill, and Hollow End Farm was old. Eleanor Thornbury sang.",
    ]
    told(app, "fen", story)
    assert kind_of(app, "fen", "Hollow End Farm") == "place"
    assert kind_of(app, "fen", "Wetherby Fen") == "place"
    assert kind_of(app, "fen", "Carrick Scar") == "place"
    assert kind_of(app, "fen", "Tobin Marsh") != "place"  # "Marsh" is as often a surname


def test_a_house_or_a_hall_named_for_its_family_is_a_place(app: App) -> None:
    story = [
        "Lord Brantwell rode up to Brantwell House, and Brantwell House waited, dark.",
        "Brantwell House watched the moor. Anne Hall waved from Lafter Hall.",
        "Lafter Hall stood grey. Anne Hall said she would walk there, and Anne Hall smiled.",
        "Kestle Head rose black over the bay. Kestle Head was the end of the land.",
        "Halsworth Court stood above the village. Halsworth Court was shuttered and cold.",
    ]
    told(app, "moor", story)
    assert kind_of(app, "moor", "Brantwell House") == kind_of(app, "moor", "Lafter Hall") == "place"
    assert kind_of(app, "moor", "Halsworth Court") == "place"
    assert kind_of(app, "moor", "Kestle Head") == "place"  # a headland
    assert kind_of(app, "moor", "Anne Hall") == "character"  # a given name before it


def test_a_place_by_its_name_joins_no_one_of_its_family_name(app: App) -> None:
    story = [
        "Brantwell House, Grosvenor Street, 31 May.",  # a letter's heading
        '"Come in," said Lord Brantwell, and Lord Brantwell laughed at the rain.',
        "Lord Brantwell wrote to Ada. Brantwell said nothing more.",
    ]
    told(app, "letters", story, times=1)
    told(app, "letters", ['"No," said Lord Brantwell.', "Lord Brantwell slept."], times=2)
    lord = character(app.story, "letters", "Lord Brantwell")
    assert lord.kind == "character" and "Brantwell House" not in lord.aliases


def test_a_heading_does_not_introduce_a_character_glued_to_the_next_sentence(app: App) -> None:
    heading = "The Weaver and the Gull\n\nIn the days of the tides a Weaver lived above the bay."
    told(app, "fable", [heading, '"Sails," said the Weaver. "Always sails," said the Weaver.'])
    weaver = character(app.story, "fable", "Weaver")
    assert weaver.description.startswith("In the days of the tides")
    assert "Gull In the days" not in weaver.description


def test_names_made_with_of_are_whole_and_told_apart_by_their_domain(app: App) -> None:
    witches = [
        '"You have killed her," said the Witch of the North. "Go," said the Wicked Witch of '
        "the West.",
        '"Hurry," said the Queen of the Field Mice, and the Wicked Witch of the West laughed.',
        '"Run," cried the Queen of the Field Mice. Dorothy ran to the Witch of the North.',
    ]
    told(app, "oz", witches)
    north = character(app.story, "oz", "Witch of the North")
    west = character(app.story, "oz", "Wicked Witch of the West")
    assert north.kind == west.kind == "character" and north.name != west.name
    queen = character(app.story, "oz", "Queen of the Field Mice")
    # Its title taken off leaves no name: "of the Field Mice" is no one's.
    assert queen.kind == "character"
    assert not any(alias.startswith("of ") for alias in queen.aliases), queen.aliases


SCHOOL = [
    '"Home, little Fan?" returned the boy. The child clapped her hands and laughed at the snow.',
    "The coach stood at the gate, and the boy ran down the long cold hall with his trunk.",
    '"What is this, Dorrit?" asked the master. The groom held out a letter with a black seal.',
    '"You are quite a woman, little Fan!" exclaimed the boy, and the master frowned at the snow.',
    "Dorrit the groom said nothing, and the coach went down the lane to the village.",
]


def test_a_name_called_out_in_dialogue_is_someone_whatever_ner_says(app: App) -> None:
    # NER calls both names a thing's; a reader knows whom a speaker calls is someone.
    told(app, "school", SCHOOL, times=2)
    assert kind_of(app, "school", "Fan") == "character"
    assert kind_of(app, "school", "Dorrit") == "character"


def test_a_girl_named_by_her_given_names_alone_is_the_girl_of_her_full_name(
    app: App,
) -> None:
    nursery = [
        '"Wendy Moira Angela Darling," she replied, and Peter bowed to her.',
        '"I\'m so sorry," said Wendy Moira Angela, and Peter laughed at her.',
        "Wendy sewed on his shadow. John Darling slept, and Wendy sang to Michael.",
        "Mr. Darling came home late. Wendy kissed him, and Nana barked at the door.",
    ]
    told(app, "nursery", nursery * 3)
    wendy = character(app.story, "nursery", "Wendy")
    assert {"Wendy Moira Angela", "Wendy Moira Angela Darling"} <= set(wendy.aliases)
    assert "John Darling" not in wendy.aliases


def test_a_captain_and_a_mister_of_one_family_name_are_two_people(app: App) -> None:
    family = [
        "Mr. Ashgrove managed old Mr. Thornbury's affairs, and Mr. Thornbury trusted him.",
        "Mr. Thornbury paid the debt in gold. Mr. Thornbury laughed at the boy's writing.",
        "Eleanor wrote to Captain Thornbury at Lisbon, and Lucy asked for her father.",
        "Captain Thornbury's ship came into Plymouth in March, and Eleanor wept.",
    ]
    told(app, "family", family * 3)
    captain = character(app.story, "family", "Captain Thornbury")
    assert "Mr. Thornbury" not in captain.aliases
    assert character(app.story, "family", "Mr. Thornbury").mentions >= 12


VILLAGE = [
    "Dr. Kimble came in from the cold. Mrs. Kimble poured the tea, and Dr. Kimble drank it.",
    '"Come, uncle Kimble," said Nancy Lammeter, and uncle Kimble sat down by aunt Kimble.',
    "Nancy Lammeter laughed. Mrs. Kimble smiled at her, and Dr. Kimble told a long story.",
    "Later aunt Kimble said goodnight, and uncle Kimble went home with her. My aunt slept.",
]


def test_a_kin_title_written_in_lower_case_is_the_title_of_the_name_after_it(app: App) -> None:
    # Silas Marner writes "uncle Kimble" (the doctor) and "aunt Kimble" (his wife): the title
    # the family calls them by, which says whose each is; "My aunt" alone names no one.
    told(app, "village", VILLAGE)
    doctor = character(app.story, "village", "Dr. Kimble")
    wife = character(app.story, "village", "Mrs. Kimble")
    assert "uncle Kimble" in doctor.aliases and "uncle Kimble" not in wife.aliases
    assert "aunt Kimble" in wife.aliases and "aunt Kimble" not in doctor.aliases
    assert kind_of(app, "village", "aunt") is None


def test_a_character_first_named_in_a_long_sentence_is_introduced_by_it_marked_as_cut(
    app: App,
) -> None:
    # Persuasion names Anne first inside a 600-character sentence of births; her introduction
    # showed a window of it from "James Stevenson, Esq." with nothing to say so, and, once
    # marked, must not give way to a sentence chapters later.
    births = "; ".join(f"a son, born June {n}, 1785" for n in range(1, 25))
    opening = f"Walter Elliot had issue Elizabeth, {births}; and Anne Elliot, born 1787."
    later = ["The rain fell on the hills, and the river rose. " * 20] * 4
    westgate = "Who is Miss Anne Elliot to be visiting in Westgate Buildings?"
    told(app, "kellynch", [opening, *later, westgate], times=1)
    anne = character(app.story, "kellynch", "Anne Elliot")
    assert "Miss Anne Elliot" in anne.aliases
    assert anne.description.startswith("\u2026") and "Anne Elliot, born 1787." in anne.description
    assert "Westgate" not in anne.description

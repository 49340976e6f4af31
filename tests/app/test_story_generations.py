"""Two generations of one family told apart ("old Mr. Emerson" and "young Mr. Emerson"): the
father, called by his title alone, is a character of his own after an import, on either
engine; the writer may still join them, and no suggestion joins them again."""

from __future__ import annotations

from loci.app import App
from loci.toolsets.story.curation import correct, undo
from loci.toolsets.story.generations import two_generations
from loci.toolsets.story.lookup import character
from loci.toolsets.story.suggestions import suggest
from tests.logic.test_story_aged import _character
from tests.storytext import told

ENGINES = ("sqlite", "postgresql")

# A Room with a View: the father is "Mr. Emerson" (85 times) and "old Mr. Emerson"; the son
# "George", "George Emerson" and "young Mr. Emerson". Joined by their family name alone, the
# father's 85 mentions were George's.
PENSION = [
    "George Emerson stood at the window of the pension. The river ran high below.",
    "George watched the river, and the rain fell on the Arno.",
    "Old Mr. Emerson sat by the fire. Mr. Emerson spoke to Lucy Honeychurch of the Arno.",
    "Lucy Honeychurch saw young Mr. Emerson cross the square in the rain.",
    "Mr. Emerson laughed, and Lucy Honeychurch smiled at old Mr. Emerson.",
    "Young Mr. Emerson did not answer Lucy Honeychurch, and went out into the rain.",
]


def test_a_father_and_son_of_one_family_name_are_two_characters_after_an_import(
    app: App,
) -> None:
    told(app, "pension", PENSION, times=3)
    george = character(app.story, "pension", "George")
    assert "George Emerson" in george.aliases and "Mr. Emerson" not in george.aliases
    father = character(app.story, "pension", "Mr. Emerson")
    assert father.kind == "character" and "George" not in father.aliases
    # A name the cast does not hold that fits both says so, to be added to the right one.
    old = character(app.story, "pension", "old Mr. Emerson")
    assert old.warning is not None and "so do the names of" in old.warning
    shown = {old.name, old.warning.rsplit("of ", 1)[1].strip("'")}
    assert shown == {george.name, father.name}
    offered = [(s.name, s.other) for s in suggest(app.story, "pension").suggestions]
    assert not any({"George", "Mr. Emerson"} <= {n, o} for n, o in offered)
    # The writer who thinks otherwise joins them, and the import's end leaves them so.
    correct(app.story, "pension", "merge", "George", "Mr. Emerson")
    app.story.resolve_cast("pension")
    assert "Mr. Emerson" in character(app.story, "pension", "George").aliases
    undo(app.story, "pension")
    assert "Mr. Emerson" not in character(app.story, "pension", "George").aliases


def test_two_generations_need_each_word_said_twice_and_one_given_named_character() -> None:
    father_and_son = "Old Mr. Emerson sat. " * 2 + "Young Mr. Emerson stood. " * 2
    george = _character(1, "George", "George Emerson", "Mr. Emerson", "Emerson")
    assert set(two_generations(father_and_son, [george])) == {
        ("Mr. Emerson", "George Emerson"),
        ("Emerson", "George Emerson"),
    }
    # Once each may be one man seen at two ages ("old Brooke", "young Brooke": John Brooke).
    assert two_generations("Old Mr. Emerson sat. Young Mr. Emerson stood.", [george]) == []
    # Both given names written: the cast tells them apart by their names.
    james = _character(2, "James Emerson", "Mr. Emerson")
    assert two_generations(father_and_son, [george, james]) == []

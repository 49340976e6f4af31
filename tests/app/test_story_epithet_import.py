"""An epithet the import takes for a name of the story's one carrier of its title, or of the
one named with it far more often than any other."""

from __future__ import annotations

from loci.app import App
from loci.toolsets.story.lookup import character
from tests.storytext import told


def test_an_epithet_goes_to_the_carrier_named_with_its_title_far_more_than_any_other(
    app: App,
) -> None:
    # Dracula: "the Count" (161 times) was a suggestion only, for the story names his alias
    # "Count de Ville" twice beside "Count Dracula" a dozen times and more.
    story = [
        "Count Dracula stood at the door, and Jonathan bowed to Count Dracula.",
        "The Count smiled, and Jonathan watched the Count climb the stair.",
        "Count Dracula wrote letters all night; the Count sealed them with wax.",
        "Jonathan found the Count asleep in his box, and fled from the Count.",
    ]
    alias = ["The deeds were signed by a Count de Ville of Piccadilly."]
    told(app, "castle", [*story, *story, *alias], times=3)
    count = character(app.story, "castle", "Count Dracula")
    assert "the Count" in count.aliases
    assert "Count de Ville" not in count.aliases


def test_a_name_ner_never_takes_but_the_dialogue_calls_out_is_a_character(app: App) -> None:
    # Fathers and Sons: "Prokofitch", the old butler, was written eleven times and never
    # tagged by NER, so he was no one in the cast.
    story = [
        '"So here is the young master, Prokofitch!" said Nikolai Petrovitch.',
        "Meanwhile Prokofitch chewed his lips and never removed his eyes from Bazarov.",
        "The only servant to disapprove of Bazarov was old Prokofitch, the butler.",
    ]
    told(app, "marino", story, times=2)
    butler = character(app.story, "marino", "Prokofitch")
    assert butler.kind == "character"
    assert butler.mentions == 6

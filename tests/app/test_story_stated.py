"""Names the story says outright are one person's ("Abel Magwitch, otherwise Provis", "Mrs.
Weston (poor Miss Taylor that was)"): one character of the cast an import leaves, on either
engine; the writer's split still stands."""

from __future__ import annotations

from loci.app import App
from loci.toolsets.story.curation import correct, undo
from loci.toolsets.story.lookup import character
from loci.toolsets.story.suggestions import suggest
from tests.app.test_story_suggestions import HARTFIELD
from tests.storytext import told, written

ENGINES = ("sqlite", "postgresql")


def test_names_the_story_says_are_one_persons_are_one_character_after_an_import(
    app: App,
) -> None:
    # Great Expectations: "Abel Magwitch, otherwise Provis" (70 times) was a suggestion only.
    # Said outright, the two are one though named in one sentence ("Mrs. Weston (poor Miss
    # Taylor that was)"), joined as whole people once the cast is worked out.
    told(app, "hartfield", HARTFIELD, times=2)
    weston = character(app.story, "hartfield", "Mrs. Weston")
    assert {"Mrs. Weston", "Miss Taylor"} <= set(weston.aliases) and weston.mentions == 16
    assert all(s.other != "Miss Taylor" for s in suggest(app.story, "hartfield").suggestions)
    # The writer may think otherwise: split off, it stays apart through the import's end.
    correct(app.story, "hartfield", "split", "Mrs. Weston", "Miss Taylor")
    app.story.resolve_cast("hartfield")
    assert "Miss Taylor" not in character(app.story, "hartfield", "Mrs. Weston").aliases
    undo(app.story, "hartfield")
    assert "Miss Taylor" in character(app.story, "hartfield", "Mrs. Weston").aliases
    # Keeping her apart from someone else leaves her own names hers (a newcomer kept "Mrs.
    # Penniman" apart from "Mr. Penniman", and her "Lavinia" left her).
    correct(app.story, "hartfield", "apart", "Mrs. Weston", "Emma Hale")
    app.story.resolve_cast("hartfield")
    assert "Miss Taylor" in character(app.story, "hartfield", "Mrs. Weston").aliases


def test_a_name_called_out_that_one_character_answers_is_theirs_after_an_import(
    app: App,
) -> None:
    # Moby-Dick: Peleg calls Queequeg "Quohog", and Queequeg answers in the paragraph after
    # (here Tom Ashby: NER finds no "Queequeg" in so short a story).
    story = [
        '"I say, Quohog, did you ever strike a fish?" cried Peleg.',
        "Without a word, Tom Ashby jumped upon the bulwarks, and Bildad stared.",
    ]
    written(app, "pequod", story, times=4)
    found = suggest(app.story, "pequod").suggestions
    assert ("merge", "Tom Ashby", "Quohog") in [(s.action, s.name, s.other) for s in found]
    app.story.resolve_cast("pequod")  # as an import's end does
    assert "Quohog" in character(app.story, "pequod", "Tom Ashby").aliases
    assert all(s.other != "Quohog" for s in suggest(app.story, "pequod").suggestions)


def test_a_name_two_readings_give_to_two_characters_is_left_to_the_writer() -> None:
    from loci.toolsets.story.models import CastSuggestion
    from loci.toolsets.story.stated import sure_pairs

    def merge(name: str, other: str) -> CastSuggestion:
        return CastSuggestion(
            action="merge", name=name, other=other, mentions=9, reason="", evidence=""
        )

    answered, said = merge("Elinor", "Miss Dashwood"), merge("Marianne", "Miss Dashwood")
    fritz = merge("Mr. Bhaer", "Fritz")
    assert sure_pairs([answered, fritz, said]) == [fritz]
    assert sure_pairs([answered, answered, fritz]) == [answered, answered, fritz]


def test_a_name_said_in_brackets_as_the_one_before_is_theirs_after_an_import(app: App) -> None:
    # Dracula: "Lord Godalming (that was Arthur of Miss Lucy)": Arthur come into his father's
    # title, named so 88 times, was a character of his own.
    story = [
        "Arthur Holmwood rode up to the house, and Arthur kissed Lucy Westenra at the door.",
        "Lucy laughed, and Arthur carried her roses into the hall.",
        "Lord Godalming sent word from Ring, and Lord Godalming was to come at once.",
        "I am friend of Dr. Seward and of Lord Godalming (that was Arthur of Miss Lucy).",
    ]
    told(app, "whitby", story, times=4)
    arthur = character(app.story, "whitby", "Arthur")
    assert "Lord Godalming" in arthur.aliases


def test_a_stated_pair_joins_no_names_the_writer_kept_apart() -> None:
    from loci.toolsets.story.meetings import Together
    from loci.toolsets.story.resolution import _join_stated

    def joined(alone: set[int], declined: set[frozenset[int]]) -> dict[int, int]:
        person_of = {1: 1, 2: 2, 3: 3}  # "Mrs. Weston", "Miss Taylor", "Mr. Weston"
        kind_of = dict.fromkeys(person_of, "character")
        together = {(1, 2): Together(stated=1)}
        _join_stated(person_of, kind_of, together, {1: 9, 2: 4, 3: 5}, alone, declined)  # type: ignore[arg-type]
        return person_of

    assert joined(set(), set()) == {1: 1, 2: 1, 3: 3}
    assert joined(set(), {frozenset({1, 3})}) == {1: 1, 2: 1, 3: 3}  # apart from another
    assert joined(set(), {frozenset({1, 2})}) == {1: 1, 2: 2, 3: 3}  # apart from each other
    assert joined({2}, set()) == {1: 1, 2: 2, 3: 3}  # split off


def test_a_married_name_of_a_family_with_one_woman_by_name_is_hers_after_an_import(
    app: App,
) -> None:
    # The Great Gatsby: "Mrs. Wilson" (19 times) is Myrtle Wilson, the one woman of the
    # family the story names, beside George Wilson: a suggestion only, it is one character now.
    story = [
        "Myrtle Wilson came down the stairs, and George Wilson watched her from the door.",
        "Mrs. Wilson laughed at Tom Buchanan and poured the whisky for him.",
        "Myrtle looked at Tom Buchanan over her glass, and George Wilson said nothing.",
        "Mrs. Wilson sat down on the sofa beside Catherine.",
    ]
    written(app, "valley", story, times=3)
    found = suggest(app.story, "valley").suggestions
    assert ("merge", "Myrtle Wilson", "Mrs. Wilson") in [(s.action, s.name, s.other) for s in found]
    app.story.resolve_cast("valley")  # as an import's end does
    assert "Mrs. Wilson" in character(app.story, "valley", "Myrtle Wilson").aliases
    assert "Mrs. Wilson" not in character(app.story, "valley", "George Wilson").aliases
    assert all(s.other != "Mrs. Wilson" for s in suggest(app.story, "valley").suggestions)

"""The merges an import accepts itself (`sure_suggestions`), on either engine: made as
corrections by loci, listed and undone as the writer's are; none with `accept_sure` off."""

from __future__ import annotations

from pathlib import Path

from loci.app import App
from loci.toolsets.story import manuscript, sure_suggestions
from loci.toolsets.story.curation import correct, listing, undo
from loci.toolsets.story.lookup import entities_of
from loci.toolsets.story.suggestions import suggest

ENGINES = ("sqlite", "postgresql")
HARROWBY = Path(__file__).parent.parent / "fixtures" / "harrowby.txt"


def pieces(app: App) -> list[str]:
    return list(manuscript.interactions(HARROWBY.read_text("utf-8"), app.story.counter))


def test_an_import_makes_the_merges_it_is_sure_of_as_corrections_by_loci(app: App) -> None:
    result = manuscript.stream_into(app.story, "h", pieces(app))
    # Each with the number `undo` takes it back by.
    assert [made.split(": ")[:2] for made in result.accepted] == [
        ["#1", "'Anna Brook' merged into 'Anna'"],
        ["#2", "'Mr. Gale' merged into 'Mr. Thomas Gale'"],
    ]
    assert all("by loci" in made for made in listing(app.story, "h"))
    # Merged by loci, not named by the writer, she is shown by her full name: "Anna Vale" is
    # another woman.
    shown = [e.name for e in entities_of(app.story, "h")]
    assert "Anna Brook" in shown and "Anna" not in shown
    assert suggest(app.story, "h").suggestions == []
    undone = undo(app.story, "h")
    assert undone.undone.startswith("#2: 'Mr. Gale' merged into 'Mr. Thomas Gale' by loci")
    offered = suggest(app.story, "h").suggestions
    assert [(s.action, s.name, s.other) for s in offered] == [
        ("merge", "Mr. Thomas Gale", "Mr. Gale")
    ]
    # The writer's own merge names her as the writer chose.
    undo(app.story, "h")
    correct(app.story, "h", "merge", "Anna", "Anna Brook")
    assert "Anna" in [e.name for e in entities_of(app.story, "h")]


def test_an_import_told_to_keep_the_suggestions_makes_no_correction(app: App) -> None:
    result = manuscript.stream_into(app.story, "h", pieces(app), accept_sure=False)
    assert result.accepted == [] and listing(app.story, "h") == []
    # Three merges are suggested; the import accepts two. "Anna Brook" and "Anna Vale" (a
    # barmaid, another woman) may be one woman's maiden and married names, but two family
    # names look like two people: left to the writer.
    offered = suggest(app.story, "h").suggestions
    assert sorted((s.name, s.other) for s in offered if s.action == "merge") == [
        ("Anna", "Anna Brook"),
        ("Anna Vale", "Anna Brook"),
        ("Mr. Thomas Gale", "Mr. Gale"),
    ]
    two = {(s.name, s.other): sure_suggestions.two_people(app.story, "h", s) for s in offered}
    assert two[("Anna Vale", "Anna Brook")] and not two[("Mr. Thomas Gale", "Mr. Gale")]


def test_an_import_leaves_a_title_and_an_initial_to_the_writer(app: App) -> None:
    # Emma: Mrs. Elton's "Mr. E." is her husband; an initial is the writer's to read.
    story = [
        "Mr. Elton came to Hartfield in the rain. Mr. Elton bowed to Emma Woodhouse.",
        "\u201cMr. E. is so attentive,\u201d said Mrs. Elton. \u201cI told Mr. E. so.\u201d",
        "Mr. Elton smiled at his wife. Mrs. Elton laughed and turned to Emma Woodhouse.",
        "\u201cMr. E. and I walk every morning,\u201d said Mrs. Elton. Mr. Elton nodded.",
        "Emma Woodhouse went home. Mr. Elton rode out, and Mr. E. was not seen again.",
    ]
    text = "\n\n".join(story)
    parts = list(manuscript.interactions(text, app.story.counter))
    result = manuscript.stream_into(app.story, "e", parts)
    assert result.accepted == [] and listing(app.story, "e") == []
    offered = [(s.action, s.name, s.other) for s in suggest(app.story, "e").suggestions]
    assert offered == [("merge", "Mr. Elton", "Mr. E.")]

"""A merge names the other entity as the story writes it: a name the story never writes (a
misspelling, a word of a longer name) is refused with the story's closest names, where it was
once logged as a merge that changed nothing."""

from __future__ import annotations

import pytest

from loci.app import App
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.story.curation import correct
from loci.toolsets.story.lookup import character
from tests.storytext import told

HARBOUR = (
    'Tobias Reed mended the nets, and Tobias Reed laughed. "Tide," said Pim, and Pim '
    "whistled as he worked. Mira Voss rowed in from Port Elder, and Mira Voss waved."
)


@pytest.fixture
def harbour(app: App) -> App:
    for _ in range(3):
        app.story.continue_story("harbour", "Go on.", HARBOUR)
    return app


@pytest.mark.parametrize(
    ("other", "suggested"),
    [("Tobias Red", "Tobias Reed"), ("Reed", "Tobias Reed"), ("Mira", "Mira Voss"),
     ("Zebediah Nobody", None)],
)  # fmt: skip
def test_a_merge_with_a_name_the_story_never_writes_is_refused(
    harbour: App, other: str, suggested: str | None
) -> None:
    with pytest.raises(NotFoundError) as refused:
        correct(harbour.story, "harbour", "merge", "Pim", other)
    message = refused.value.message
    assert f"never writes {other!r}" in message
    # A newcomer merged "Nick Carraway" (never written) into Nick to show him so: rename does.
    assert message.endswith("To show a character by a name the story never writes, rename it.")
    if suggested is None:  # a tester's "Addy" was refused with no names to go by
        assert "did you mean" not in message
        assert "none of its names is close (story://harbour/characters" in message
    else:
        assert f"did you mean {suggested!r}" in message or f"or {suggested!r}" in message
        # Never the name refused: "Reed" is listed (inside "Tobias Reed"), never written
        # alone (a tester's "never writes 'Henry Dashwood' ... did you mean 'Henry Dashwood'").
        assert repr(other) not in message.split("did you mean", 1)[1]
    pim = character(harbour.story, "harbour", "Pim")
    assert pim.aliases == ["Pim"] and pim.corrections == []  # nothing logged


def test_a_characters_surname_finds_them_but_no_correction_names_it(harbour: App) -> None:
    # The story writes "Tobias Reed", never "Reed" alone: a writer asking for "Reed" means
    # him, while a correction is kept under names the story writes.
    reed = character(harbour.story, "harbour", "Reed")
    assert reed.name == "Tobias Reed" and "Reed" in reed.aliases
    with pytest.raises(InvalidInputError, match="writes 'Reed' only inside 'Tobias Reed'"):
        correct(harbour.story, "harbour", "split", "Tobias Reed", "Reed")
    # Named by "Reed", the entity is kept under "Tobias Reed": that name cannot leave it.
    with pytest.raises(InvalidInputError, match="'Reed' names 'Tobias Reed' itself here"):
        correct(harbour.story, "harbour", "split", "Reed", "Tobias Reed")
    assert character(harbour.story, "harbour", "Reed").corrections == []


def test_a_merge_with_a_name_as_the_story_writes_it_in_any_case_is_applied(
    harbour: App,
) -> None:
    merged = correct(harbour.story, "harbour", "merge", "Pim", "tobias reed")
    assert {"Tobias Reed", "Pim"} <= set(merged.aliases) and merged.corrections


def test_an_alias_naming_an_entity_of_its_own_says_to_merge_it(harbour: App) -> None:
    from loci.errors import ConflictError

    with pytest.raises(ConflictError) as refused:
        correct(harbour.story, "harbour", "alias", "Tobias Reed", "Pim")
    assert refused.value.message == (
        "'Pim' is already an entity of its own: merge 'Pim' into 'Tobias Reed' instead"
    )
    assert "Pim" not in character(harbour.story, "harbour", "Tobias Reed").aliases


def test_an_entity_is_shown_by_the_name_the_writer_merged_into(harbour: App) -> None:
    # A tester merged "Grace" (written most) into "Ysolde" and saw the queen shown as "Grace",
    # the correction saying "merged into 'Ysolde'".
    merged = correct(harbour.story, "harbour", "merge", "Pim", "Tobias Reed")
    assert merged.name == "Pim"
    renamed = correct(harbour.story, "harbour", "rename", "Pim", "Old Tobias")
    again = correct(harbour.story, "harbour", "merge", "Tobias Reed", "Mira Voss")
    assert renamed.name == again.name == "Old Tobias"  # a rename says it outright: it stands
    split = correct(harbour.story, "harbour", "split", "Pim", "Tobias Reed")
    assert split.name == "Tobias Reed"  # never a name the entity no longer holds
    assert character(harbour.story, "harbour", "Pim").name == "Old Tobias"


def test_a_merge_of_words_the_story_writes_as_no_name_says_to_add_an_alias(harbour: App) -> None:
    # A tester's "merge Corin 'Little stag'" was refused as never written: the story wrote it,
    # where the cast found no name.
    with pytest.raises(NotFoundError) as refused:
        correct(harbour.story, "harbour", "merge", "Pim", "the nets")
    assert refused.value.message == (
        "the story writes 'the nets', but the cast holds no name 'the nets' to merge: add it "
        "to 'Pim' with alias"
    )
    assert character(harbour.story, "harbour", "Pim").corrections == []


def test_a_kind_adds_a_name_the_story_writes_where_the_cast_saw_none(app: App) -> None:
    # A tester's "Harriet", written three times, never reached the cast; `kind Harriet
    # character` said the story "names nothing called 'Harriet'", which was untrue.
    from loci.toolsets.story.curation import undo

    for number in range(3):
        app.story.continue_story(
            "ashby", "", f"Tobias Reed waved. Harriet sends her love. ({number})"
        )
    with pytest.raises(NotFoundError) as missing:
        character(app.story, "ashby", "Harriet")
    assert "the story writes it: `kind` adds it" in missing.value.message
    added = correct(app.story, "ashby", "kind", "Harriet", "character")
    assert (added.name, added.kind, added.mentions) == ("Harriet", "character", 3)
    assert added.confirmed
    undo(app.story, "ashby")
    with pytest.raises(NotFoundError):
        character(app.story, "ashby", "Harriet")
    with pytest.raises(NotFoundError, match=r"names nothing called 'Zebedee'$"):
        correct(app.story, "ashby", "kind", "Zebedee", "character")  # never written
    app.story.continue_story("ashby", "", "Nobody answered the door.")
    with pytest.raises(NotFoundError) as nobody:  # a tester was told `kind` would add it
        character(app.story, "ashby", "Nobody")
    assert "`kind` adds it" not in nobody.value.message
    with pytest.raises(NotFoundError, match=r"names nothing called 'Nobody'$"):
        correct(app.story, "ashby", "kind", "Nobody", "character")
    with pytest.raises(NotFoundError, match="the story writes it: `kind` adds it"):
        correct(app.story, "ashby", "alias", "Harriet", "Harry")  # only a kind adds a name


def test_a_name_given_a_kind_does_not_take_in_one_the_writer_gave_another(app: App) -> None:
    # Wuthering Heights: a newcomer marked the dog "Fanny" other, then added "Frances" with
    # `kind Frances character`; the cast joined the two (a pet form) without a word, and
    # the dog's name became hers.
    for number in range(3):
        app.story.continue_story(
            "ashby",
            "",
            f"Tobias Reed waved. Harriet sends her love. Hattie barked at the gate, and "
            f"Hattie ran off. ({number})",
        )
    correct(app.story, "ashby", "kind", "Hattie", "other")
    added = correct(app.story, "ashby", "kind", "Harriet", "character")
    assert (added.name, added.kind, added.aliases) == ("Harriet", "character", ["Harriet"])
    dog = character(app.story, "ashby", "Hattie")
    assert (dog.kind, dog.aliases) == ("other", ["Hattie"])


def test_a_merge_may_name_a_name_with_its_article(app: App) -> None:
    # A tester's `merge "August Kroon" "the Dutchman"` was refused: the cast keeps "Dutchman".
    told(
        app,
        "noir",
        [
            '"Sit," the Dutchman said. The Dutchman smiled, and the Dutchman waited.',
            "His real name was August Kroon. August Kroon bought her a coat.",
        ],
    )
    merged = correct(app.story, "noir", "merge", "August Kroon", "the Dutchman")
    assert "Dutchman" in merged.aliases and "August Kroon" in merged.aliases
    assert merged.corrections[-1].startswith("#1: 'Dutchman' merged into 'August Kroon'")


def test_a_correction_naming_a_title_the_story_never_writes_changes_nothing(app: App) -> None:
    # A newcomer's `kind "Lady Jory" place` marked Jory, the boatman, a place; and `merge
    # "Mrs. Anton" Pascoe` merged Pascoe into Anton: a name never written, with a title, was
    # taken for the one whose names it fits.
    story = [
        '"Mend the nets," said Jory Trelawny to Anton Vell, and Ned Pascoe laughed.',
        "Jory sat down by Anton, and Ned Pascoe went home.",
    ]
    told(app, "quay", story)
    before = cast_of(app, "quay")
    with pytest.raises(NotFoundError, match="'Lady Trelawny'; did you mean 'Jory Trelawny'"):
        correct(app.story, "quay", "kind", "Lady Trelawny", "place")
    with pytest.raises(NotFoundError, match=r"'Mr\. Vell'; did you mean 'Anton Vell'"):
        correct(app.story, "quay", "merge", "Mr. Vell", "Ned Pascoe")
    assert cast_of(app, "quay") == before
    assert character(app.story, "quay", "Jory Trelawny").corrections == []


def cast_of(app: App, session: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """Each entity of the session's cast: its name, kind and names."""
    from loci.toolsets.story import store

    with app.db.snapshot() as conn:
        found = store.session(conn, session)
        return [
            (e.name, e.kind, tuple(e.aliases)) for e in app.story.graph.entities(conn, found.id)
        ]

"""How a correction that cannot apply is refused: with what the story does write."""

from __future__ import annotations

from loci.errors import ConflictError
from loci.toolsets.story.correction_checks import inside_another
from loci.toolsets.story.entity import Entity, Seen


def _entity(number: int, *aliases: str) -> Entity:
    return Entity(number, aliases[0], "character", 5, Seen(0, ""), [], list(aliases), [number])


def test_an_alias_written_only_inside_another_name_names_the_merge_to_make() -> None:
    ridley = _entity(1, "Ridley")
    glued = _entity(2, "Sold Walter Ridley")  # NER ran a sentence's verb into the name
    refusal = inside_another([ridley, glued], ridley, "Walter Ridley")
    assert isinstance(refusal, ConflictError)
    assert str(refusal) == (
        "the story writes 'Walter Ridley' only inside 'Sold Walter Ridley', a name of its own: "
        "merge 'Sold Walter Ridley' into 'Ridley' instead"
    )
    assert inside_another([ridley, glued], ridley, "Walt Ridley") is None
    assert inside_another([ridley], ridley, "Walter Ridley") is None


def test_a_warning_writes_the_words_of_names_as_names_are_written() -> None:
    # A tester read "two given names, Daddy-long-legs and John".
    from loci.toolsets.story.correction_checks import _listed

    assert _listed({"daddy-long-legs", "john"}) == "Daddy-Long-Legs or John"


def test_a_misspelt_name_is_answered_with_the_casts_names_before_stray_words() -> None:
    # A tester's "Sally" was answered "did you mean 'Shall' or 'Sallie'": a stray word first.
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.lookup import closest

    def entity(number: int, name: str, kind: str) -> Entity:
        return Entity(number, name, kind, 3, Seen(0, ""), [], [name])

    cast = [
        entity(1, "Shall", "other"),
        entity(2, "Sallie", "character"),
        entity(3, "Salt", "other"),
    ]
    assert closest(cast, "Sally")[:2] == ["Sallie", "Shall"]

"""The cast metrics of `loci eval story` (`loci.evaluation.cast`)."""

from __future__ import annotations

from loci.evaluation import cast

LISTED = [
    {"name": "Victor Frankenstein", "aliases": ["Victor", "Frankenstein"]},
    {"name": "Mr. Collins", "aliases": []},
]
TEXT = "“My dear Victor,” cried he. “Frankenstein!” Mr.  Collins bowed."


def test_cohesion_is_the_share_of_forms_the_best_entity_holds() -> None:
    apart = [
        cast.CastEntity("Victor", ("Victor",), True),
        cast.CastEntity("Frankenstein", ("Frankenstein",), True),
        cast.CastEntity("Mr. Collins", ("Mr. Collins",), True),
    ]
    joined = [cast.CastEntity("Victor", ("Victor", "Frankenstein"), True), apart[2]]
    assert cast.cohesion(LISTED, apart) == round((1 / 3 + 1) / 2, 3)
    assert cast.cohesion(LISTED, joined) == round((2 / 3 + 1) / 2, 3)
    listed_only = [cast.CastEntity("Victor", ("Victor", "Frankenstein"), False)]
    assert cast.cohesion(LISTED, listed_only) == 0.0  # an entity not listed as a character


def test_the_ceiling_leaves_out_forms_the_text_never_writes() -> None:
    # "Victor Frankenstein" is never written; "Mr. Collins" is, across two spaces.
    assert cast.ceiling(LISTED, TEXT) == round((2 / 3 + 1) / 2, 3)
    assert cast.ceiling(LISTED, "victor FRANKENSTEIN, Mr. Collins") == 1.0
    assert cast.ceiling(LISTED, "Victoria and Mr. Collinson") == 0.0  # whole words only
    assert cast.ceiling([], TEXT) == 0.0


def test_conflated_names_entities_holding_two_peoples_forms() -> None:
    one = [cast.CastEntity("Victor", ("Victor", "Mr. Collins"), True)]
    assert cast.conflated(LISTED, one) == ["Victor"]
    assert cast.conflated(LISTED, [cast.CastEntity("Victor", ("Victor",), True)]) == []


def test_a_spec_form_is_compared_without_its_article_as_the_cast_keeps_names() -> None:
    listed = [{"name": "the Scarecrow", "aliases": ["Scarecrow", "The Theodore"]}]
    assert cast.forms_of(listed[0]) == {"scarecrow", "theodore"}
    assert cast.cohesion(listed, [cast.CastEntity("Scarecrow", ("Scarecrow",), True)]) == 0.5
    assert cast.forms_of({"name": "Theodora"}) == {"theodora"}  # a word, not an article


def test_an_epithet_the_writer_added_is_compared_without_its_article() -> None:
    listed = [{"name": "the Tin Woodman", "aliases": ["Woodman"]}]
    woodman = cast.CastEntity("Tin Woodman", ("Tin Woodman", "the Woodman"), True)
    assert cast.cohesion(listed, [woodman]) == 1.0

"""Dates, documents and ships an epistolary novel names, which are no one: "July" of a
diary's "26 July", the "Journal" of "Jonathan Harker's Journal", "the _Czarina Catherine_"."""

from __future__ import annotations

from loci.toolsets.story import mentions
from loci.toolsets.story.kinds import Votes
from tests.logic.test_story_cast import kinds_of


def test_a_month_no_one_answers_to_is_no_one() -> None:
    # *Dracula*: "_26 July._--I am anxious", NER's person three times in 18, taken up by
    # "he" once and acting once: a date. *Little Women*'s May Chester speaks: someone.
    july = Votes(mentions=18, ner_person=3, acts=1, male=1)
    may = Votes(mentions=36, ner_person=5, said=6, acts=1)
    called = Votes(mentions=12, ner_person=6, acts=1, addressed=2)
    found = kinds_of({"July": july, "May": may, "June": called})
    assert found == {"July": "other", "May": "character", "June": "character"}


def test_a_month_that_is_a_family_name_of_the_story_stays_a_name() -> None:
    # *Little Women*: "March" of Jo March and Mrs. March is the family, not the month.
    person = Votes(mentions=40, ner_person=40, said=8, female=20)
    march = Votes(mentions=6, ner_person=4, acts=1)
    found = kinds_of({"Jo March": person, "Mrs. March": person, "March": march})
    assert found["March"] == "character"


def test_a_thing_of_someones_lends_no_family_name() -> None:
    # *Dracula*'s headings "Jonathan Harker's Journal" (NER's person now and then) made
    # "Journal" (19 times, no cue of a person) a character, as a family name of the story.
    headings = Votes(mentions=16, ner_person=9, ner_place=7)
    journal = Votes(mentions=19, ner_other=1)
    found = kinds_of({"Jonathan Harker's Journal": headings, "Journal": journal})
    assert found["Journal"] != "character"


def test_the_before_an_italic_name_is_its_article() -> None:
    # A printed book sets a ship's name in italics: "the _Czarina Catherine_" has "the".
    text = "Until the _Czarina Catherine_ comes in, we wait at Galatz in the _Demeter_."
    seen = [
        mentions._with_context(text, mentions.Mention(name, text.index(name), 0), False)
        for name in ("Czarina Catherine", "Demeter")
    ]
    assert [m.article for m in seen] == [True, True]
    assert seen[1].place_word


def test_a_ship_written_after_the_is_no_character() -> None:
    # NER calls "Czarina Catherine" a person each time; "the" before it every time says a
    # thing, and nothing it does says a person.
    ship = Votes(mentions=17, ner_person=17, article=17, female=1)
    assert kinds_of({"Czarina Catherine": ship})["Czarina Catherine"] != "character"


def test_a_name_acts_in_a_journal_written_as_things_happen() -> None:
    # "Edmund laughs at me. Edmund says ...": present tense, as a journal is kept.
    text = "Edmund laughs at me. He says I shall be used to it. Edmund says so."
    seen = [
        mentions._with_context(text, mentions.Mention("Edmund", at, at + 6), False)
        for at in (0, text.rindex("Edmund"))
    ]
    assert [m.acts for m in seen] == [True, True]

"""What a way of naming someone says, and when two given names are one person's."""

from __future__ import annotations

import pytest

from loci.toolsets.story.given_names import same_given, short_form
from loci.toolsets.story.names import parse, takes_of


def test_a_title_a_given_name_and_a_surname_are_told_apart() -> None:
    darcy = parse("Mr. Fitzwilliam Darcy")
    assert darcy.titles == {"mr"} and darcy.sex == "m"
    assert darcy.given == {"fitzwilliam"} and darcy.surnames == {"darcy"} and darcy.full
    lady = parse("Lady Catherine de Bourgh")
    assert lady.sex == "f" and lady.given == {"catherine"} and lady.surnames == {"bourgh"}
    assert parse("Sir William").given == {"william"}  # a knight by his given name
    colonel = parse("Colonel Fitzwilliam")
    assert colonel.bare == {"fitzwilliam"} and colonel.surname_like
    assert parse("Miss Jo").bare == {"jo"} and not parse("Miss Jo").surname_like
    assert parse("Miss Jo").married is False and parse("Mrs. March").married is True
    assert parse("Madam Mina").sex == "f" and parse("Madam Mina").bare == {"mina"}
    assert parse("Mistress Mary").sex == "f" and parse("Mistress Mary").bare == {"mary"}
    assert parse("Mester Craven").sex == "m" and parse("Mester Craven").surname_like


def test_a_name_is_read_without_its_accents() -> None:
    # Jane Eyre: "Adèle" is the "Adela Varens" Mrs. Fairfax names; the census knows "Adele".
    assert parse("Adèle").bare == {"adele"} and parse("Miss Adèle").sex == "f"
    assert parse("Céline Varens").given == {"celine"}


def test_a_patronymic_names_the_father_whatever_its_spelling() -> None:
    assert parse("Anna Sergievna").fathers == {"serg"} and parse("Anna Sergievna").given == {"anna"}
    assert parse("Theodosia Nikolaievna").fathers == parse("Theodosia Nikolaevna").fathers
    assert parse("Evgenii Vasilitch Bazarov").fathers == parse("Vasilievitch").fathers | {"vasi"}
    assert not parse("Mr. Fitch").fathers and not parse("Henry Fitch").fathers
    # Great Expectations: "Abel Magwitch" is a given name and a surname.
    assert parse("Abel Magwitch").surnames == {"magwitch"} and not parse("Abel Magwitch").fathers


def test_a_name_made_with_of_is_known_by_its_domain() -> None:
    west, east = parse("the Wicked Witch of the West"), parse("Wicked Witch of the East")
    assert west.bare == {"wicked", "witch"} and west.surnames == {"west"}
    assert east.surnames == {"east"} and not west.given
    queen = parse("Queen of the Field Mice")
    assert queen.titles == {"queen"} and queen.sex == "f" and queen.surnames == {"mice"}
    assert parse("Queen of the Mice").surnames == queen.surnames
    assert parse("Good Witch of the North") == parse("Witch of the North")


def test_a_name_with_of_and_a_place_is_the_name_before_it_unless_titled() -> None:
    assert parse("Toad of Toad Hall").bare == {"toad"} and not parse("Toad of Toad Hall").surnames
    assert parse("King of the Golden River").surnames == {"river"}  # a king's domain


def test_a_domain_before_a_rulers_title_is_the_domain_after_of() -> None:
    marsh = parse("Marsh Queen")
    assert (marsh.titles, marsh.surnames, marsh.sex) == ({"queen"}, {"marsh"}, "f")
    assert marsh.surnames == parse("Queen of the Marsh").surnames and marsh.domain
    assert parse("Mary Queen").given == {"mary"}  # a given name: no ruler


def test_only_a_rank_or_an_epithet_takes_of() -> None:
    assert takes_of("Duke") and takes_of("the Wicked Witch") and takes_of("Guardian")
    assert not takes_of("Mr. Darcy") and not takes_of("Jane") and not takes_of("Sir William")
    assert not takes_of("R.") and not takes_of("the")


def test_a_nickname_word_and_a_sailors_title_are_no_part_of_the_name() -> None:
    assert parse("Long John Silver").given == {"john"}
    assert parse("Little Pip").bare == {"pip"} and parse("Big Ben").bare == {"ben"}
    silver = parse("Cap\u2019n Silver")
    assert silver.titles == {"cap\u2019n"} and silver.bare == {"silver"} and silver.surname_like
    assert parse("Cap'n Flint").surname_like


def test_a_married_womans_full_name_is_her_husbands() -> None:
    meg = parse("Mrs. John Brooke")
    assert meg.surnames == {"brooke"} and meg.given == frozenset()
    assert meg.husband == {"john"}
    laura = parse("Mrs. Laura Lyons")  # a woman's given name is hers
    assert laura.given == {"laura"} and laura.husband == frozenset()


def test_a_name_of_given_names_alone_has_no_surname() -> None:
    wendy = parse("Wendy Moira Angela")  # as she tells Peter her name, without "Darling"
    assert (wendy.given, wendy.surnames) == ({"wendy"}, set())
    assert parse("Wendy Moira Angela Darling").surnames == {"darling"}
    assert parse("Amy Curtis March").surnames == {"march"}
    assert parse("Injun Joe").surnames == {"joe"}  # two words: read as ever


def test_a_patronymic_is_no_surname() -> None:
    # A Russian name: given name, father's name, family name ("Dmitri Ivanovich Orlov").
    full = parse("Dmitri Ivanovich Orlov")
    assert (full.given, full.surnames) == ({"dmitri"}, {"orlov"})
    for written, given in (("Dmitri Ivanovich", "dmitri"), ("Anna Petrovna", "anna")):
        name = parse(written)
        assert (name.given, name.surnames, name.bare) == ({given}, set(), set())
    assert parse("Ivanovich").bare == {"ivanovich"}  # alone, a word like any other
    cut = parse("Ivanovna Orlova")  # "Ekaterina" cut off as a word the story seldom writes
    assert (cut.given, cut.bare | cut.surnames) == (set(), {"orlova"})
    assert parse("Ivan Petrovich Sidorov").surnames == {"sidorov"}


def test_a_saint_is_not_a_person_and_a_name_has_a_level_of_detail() -> None:
    assert parse("St. John").saint
    assert [parse(n).detail for n in ("Dan Cody", "Mr. Cody", "Dan")] == [2, 1, 0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("meg", "margaret"),
        ("teddy", "theodore"),
        ("beth", "elizabeth"),
        ("jack", "john"),
        ("kitty", "catherine"),  # the nickname list spells it "kittie"
        ("lizzy", "elizabeth"),
        ("jo", "josephine"),
        ("r", "robert"),
        ("w", "billy"),  # an initial of the name a pet form is of: William
        ("tash", "tashtego"),
        ("bethy", "beth"),
        ("nell", "eleanor"),  # the nickname list knows Nelly for Eleanor, not Nell
        ("arkasha", "arkady"),  # Russian pet forms, which the nickname list does not know
        ("anfisushka", "anfisa"),
        ("adela", "adele"),  # one woman's name in two languages' spelling
        ("louisa", "louise"),
        ("eliza", "elizabeth"),
        ("fred", "alfred"),  # "Fred" is cut from Frederick too, a name as rare
        ("nan", "ann"),  # "Nancy", which "Nan" begins, is a diminutive
    ],
)
def test_one_given_name(a: str, b: str) -> None:
    assert same_given(a, b) and same_given(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        *(("john", "james"), ("meg", "amy"), ("jo", "hannah"), ("s", "billy")),
        *(("victor", "victoria"), ("mar", "mary")),  # "Mar" is no given name to be short
        ("nikolai", "nikolaievna"),  # his daughter's patronymic, no longer form of his name
        ("mario", "maria"),  # a man's name and a woman's
        ("alda", "alde"),  # no census name, no spelling of one
        ("eliza", "louisa"),  # the list's, but "Eliza" is cut from Elizabeth
    ],
)
def test_two_given_names(a: str, b: str) -> None:
    assert not same_given(a, b)


def test_a_pet_form_of_a_surname_and_words_that_are_no_longer_forms_of_a_name() -> None:
    assert short_form("laurie", "laurence") and not short_form("ben", "bennet")
    assert not short_form("john", "johnson") and not short_form("john", "johnsonianly")


def test_a_pet_form_may_double_a_short_names_last_consonant() -> None:
    # A tester's fable: "Ratty" is the Rat; Little Women's "Meggy" is Meg.
    assert same_given("ratty", "rat") and same_given("meggy", "meg")
    assert short_form("tommy", "tom") and not short_form("tommy", "tim")
    assert not short_form("rat", "ratty")  # the other way round is no pet form


def test_a_pet_form_on_a_names_first_letters_is_rarer_than_the_name() -> None:
    # The Mysterious Affair at Styles: merging "Evie" into Miss Howard (Evelyn Howard)
    # warned of "two given names, Evelyn and Evie", and the cast kept them apart.
    assert same_given("evie", "evelyn") and same_given("andy", "andrew")
    assert same_given("katy", "katherine")
    # A name commoner than the longer one is a name of its own; two sexes are two names.
    assert not same_given("mary", "marianne") and not same_given("amy", "amelia")
    assert not same_given("annie", "annette") and not same_given("tony", "tonya")
    assert not same_given("lily", "lila")  # two names of a length, a tester's twins


def test_a_pet_form_is_rarer_than_the_name_it_is_short_for() -> None:
    assert same_given("jack", "john") and same_given("mina", "wilhelmina")
    assert same_given("meg", "margaret") and same_given("fred", "frederick")
    assert not same_given("john", "jonathan")  # two names, whatever the list says


def test_the_census_tells_a_given_name_from_one_that_is_a_surname_as_often() -> None:
    from loci.toolsets.story import census

    assert census.given_not_surname("martha") and census.given_not_surname("hannah")
    assert not census.given_not_surname("williams") and not census.given_not_surname("bell")
    assert not census.given_not_surname("yorkshire")  # no given name at all
    assert census.census_sex("martha") == "f" and census.is_given_name("Alphonse")


def test_cousin_before_a_given_name_is_a_word_of_kin_not_a_given_name() -> None:
    # Persuasion: "Cousin Charles" was read as a given name "Cousin" and a family "Charles",
    # and merging Charles Hayter with it warned of "two family names, Hayter and Charles".
    cousin = parse("Cousin Charles")
    assert cousin.titles == {"cousin"} and cousin.words == {"charles"}
    assert not cousin.surnames


def test_mademoiselle_as_servants_say_it_is_a_title() -> None:
    # A Tale of Two Cities: "Ma'amselle Manette" was a given name "Ma'amselle", another woman
    # than Lucie Manette, and "Miss Manette" (51) stayed apart from her: which was she?
    for written in ("Ma\u2019amselle Manette", "Mam'selle Manette"):
        name = parse(written)
        assert (name.sex, name.married, name.bare, name.given) == ("f", False, {"manette"}, set())


def test_a_peers_ranks_and_a_dowager_are_titles_of_their_sex() -> None:
    # Persuasion: "Dowager Viscountess Dalrymple" was the given name "Dowager", no title:
    # no woman, and no Lady Dalrymple.
    name = parse("Dowager Viscountess Dalrymple")
    assert (name.titles, name.sex, name.bare, name.given) == (
        {"dowager", "viscountess"},
        "f",
        {"dalrymple"},
        set(),
    )
    assert [parse(f"{rank} Dalrymple").sex for rank in ("Viscount", "Marchioness")] == ["m", "f"]


def test_a_number_after_a_name_numbers_its_bearers_and_is_no_surname() -> None:
    # A Tale of Two Cities: "Jacques Three" had the surname "Three"; the revolutionaries all
    # called Jacques were one entity with the code name alone.
    three, four = parse("Jacques Three"), parse("Jacques Four")
    assert three.words == four.words == {"jacques"} and not three.surnames
    assert (three.generation, four.generation) == ("three", "four")
    from loci.toolsets.story.correction_checks import two_people
    from loci.toolsets.story.entity import Entity, Seen

    def entity(number: int, name: str) -> Entity:
        return Entity(number, name, "character", 9, Seen(0, ""), [], [name])

    warned = two_people(entity(1, "Jacques Three"), entity(2, "Jacques Four"))
    assert warned is not None and "namesakes numbered Three and Four" in warned
    # Lady Susan: the son and his father, the baronet, merged by a newcomer, were said only
    # to have names that "do not fit together".
    son = Entity(3, "Mr. De Courcy", "character", 9, Seen(0, ""), [], ["Mr. De Courcy"])
    father = Entity(4, "Reginald", "character", 9, Seen(0, ""), [], ["Reginald", "Sir Reginald"])
    ranked = two_people(son, father)
    assert ranked is not None and "(called Mr and Sir)" in ranked

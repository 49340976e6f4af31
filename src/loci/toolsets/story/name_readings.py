"""What a story's names say of the people they name, read before any are joined: a wife by a
title and her family name ("Lady Lucas"), a word said of a given name's bearer ("Yorkshire
Martha"), a given name after a plain title ("Mr. Godfrey", "Mrs. Rachel", "Mrs. Joe"), and
an aunt called by her given name ("Aunt Marilla"), and the sex a given name has elsewhere.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable

from loci.toolsets.story import census, given_names, names
from loci.toolsets.story.given_names import PATRONYMIC_STORY, russian_pet
from loci.toolsets.story.people import INITIALS, MISTER, Person, wife_by_name

#: Titles that, before a family name alone, name a wife: "Lady Lucas" is Sir William's, while
#: "Lady Catherine", by her own given name, is a peer's daughter, married or not.
WIFE_TITLES = frozenset({"lady"})
AUNT = frozenset({"aunt"})
#: A word before a given name is said of its bearer when the story writes the given name
#: alone this many times as often as the two ("Yorkshire Martha" once, "Martha" 190 times).
DESCRIBED_RARITY = 10
#: Share of the uses of a given name that must agree on a sex for the name to have it.
NAME_SEX_SHARE = 0.75
#: A family's daughters written of together ("the Miss Steeles") this often are sisters.
SISTERS_LEAST = 2
#: ... of given names this long or more.
PET_OF_LEAST = 5
MISSES = re.compile(r"\bMiss(?:es)?\s+[A-Z][\w'\u2019-]*")


def wed_by_titles(people: Iterable[Person]) -> frozenset[str]:
    """Mark as married each woman named by a wife's title and a family name alone ("Lady
    Lucas": she bears her husband's name, so no daughter of the family is she); returns the
    family names: the words the story writes as the surname of a full name and never as a
    given name ("Lucas"), whatever the nickname list says of them."""
    listed = list(people)
    families = frozenset(w for p in listed for w in p.surnames) - {
        w for p in listed for w in p.given
    }
    for person in listed:
        by_family_name = bool(person.bare) and person.bare <= families
        if person.titles & WIFE_TITLES and not person.given and by_family_name:
            person.married.add(True)
    return families


def read_described(people: Iterable[Person]) -> None:
    """Read the first word of a two-word name as said of the one named, not as a given name,
    when it is no given name and the second is one the census seldom holds as a surname,
    that the story writes alone DESCRIBED_RARITY times as often and never after "Mr." or
    "Mrs.": "Yorkshire Martha" and "Weary Hannah", said once, are Martha and Hannah, and
    "Yorkshire" no name of Martha's. "Injun Joe", written as often as "Joe", is a name of its
    own; "Fitzwilliam Darcy", of "Mr. Darcy", a full name."""
    listed = list(people)
    plain = MISTER | {"mrs"}
    surnames = {w for p in listed if p.titles & plain for w in p.surnamish | p.surnames}
    alone: Counter[str] = Counter()
    for person in listed:
        if not person.titles and len(person.words) == 1:
            alone.update(dict.fromkeys(person.words, person.count))
    for person in listed:
        if person.titles or person.bare or person.surnamish or not person.character:
            continue
        if len(person.given) == len(person.surnames) == 1:
            (word,), (given,) = person.given, person.surnames
            said_alone = alone[given] >= DESCRIBED_RARITY * person.count
            if said_alone and given not in surnames and _described(word, given):
                person.given, person.surnames, person.detail = {given}, set(), 1


def _described(word: str, given: str) -> bool:
    return not census.is_given_name(word) and census.given_not_surname(given)


def read_given_after_mr(people: Iterable[Person]) -> None:
    """Read a plain title before a given name as that given name, not a family name: "Mr."
    before a word the story writes as a given name and never as a surname ("Mr. Godfrey", as
    the servants call Godfrey Cass), and "Mrs." or "Ms." before the given name of a full name
    the story writes with that title ("Mrs. Rachel" for Mrs. Rachel Lynde), or before her
    husband's given name that no one bears as a surname ("Mrs. Joe", of Mrs. Joe Gargery). A
    married woman's "Mrs." goes before surnames that are given names often ("Mrs. Thomas"),
    so only her own full name says the word is hers."""
    listed = list(people)
    surnames = {w for p in listed for w in p.surnames}
    given = {w for p in listed for w in p.given} - surnames
    titled = {(t, w) for p in listed if p.surnames for t in p.titles for w in p.given}
    wed = {(t, w) for p in listed for t in p.titles for w in p.husbands - surnames}
    for person in listed:
        words = person.surnamish
        if not (words and person.titles):
            continue
        mister = person.titles <= MISTER and words <= given
        if mister or all((t, w) in titled | wed for t in person.titles for w in words):
            person.bare |= words
            person.surnamish = set()
        if all((t, w) in wed for t in person.titles for w in words):
            person.husbands |= words  # "Joe" of "Mrs. Joe" is her husband's: "Jo" no name of hers


def read_aunts_by_given_name(people: Iterable[Person], given_words: Collection[str]) -> None:
    """An aunt called by her given name ("Aunt Marilla" of Marilla Cuthbert, "Aunt
    Josephine") says nothing of marriage, as one called by her surname does ("Aunt March" is
    a Mrs. March): she may be the "Miss Cuthbert" of the same story."""
    for person in people:
        if person.titles == AUNT and person.bare and person.bare <= set(given_words):
            person.married.discard(True)


def give_name_sexes(people: Iterable[Person], given_words: Collection[str]) -> None:
    """Give each person whose names say no sex the sex the story gives its given name
    elsewhere: a title ("Miss Amy", "Sir James") or the pronouns of the name alone. A single
    word the census holds far more as a given name than as a surname, and no one of the
    story bears as a family name, has the census's sex: "Charlotte", a maid no pronoun takes
    up, is no "Charley Bates" (both "Charley"); "Darcy" and "Joyce", family names in their
    stories, say none. A full name's surname written alone is marked a family's name
    (`Person.family_name_alone`): few "she" make it no woman's."""
    votes: dict[str, Counter[str]] = {}
    listed = list(people)
    surnames = {w for p in listed for w in p.surnames}
    for person in listed:
        alone = not (person.given or person.surnames or person.titles)
        person.family_name_alone = alone and bool(person.bare) and person.bare <= surnames
    for person in listed:
        sex = person.sex
        if sex is not None and not person.surnames:
            # An initial is no given name: "Miss F" signs a letter; "F. C." is a man's.
            for word in (person.given | person.bare) & set(given_words) - INITIALS:
                votes.setdefault(word, Counter())[sex] += person.count
    sex_of = {
        word: counted.most_common(1)[0][0]
        for word, counted in votes.items()
        if counted.most_common(1)[0][1] >= NAME_SEX_SHARE * sum(counted.values())
    }
    families = {w for p in listed for w in p.surnames | p.surnamish}
    for person in listed:
        found: set[str | None] = {sex_of[w] for w in person.given if w in sex_of}
        if not person.given:
            bare = {w for w in person.bare - families if census.given_not_surname(w)}
            found = {census.census_sex(w) for w in bare} - {None}
        if len(found) == 1:
            person.name_sex = found.pop()


def given_alone(people: Iterable[Person]) -> dict[str, int]:
    """How often the story writes each word of its full names' given names as a name alone,
    untitled ("Richard", six times, of Richard Mason)."""
    listed = list(people)
    given = {w for p in listed for w in p.given if p.surnames}
    alone: Counter[str] = Counter()
    for person in listed:
        if not (person.titles or person.given or person.surnames) and person.bare <= given:
            alone.update(dict.fromkeys(person.bare, person.count))
    return dict(alone)


def sisters(written: Iterable[tuple[str, int]], people: Iterable[Person]) -> frozenset[str]:
    """The families the story writes of as two daughters or more, SISTERS_LEAST times or more
    ("the Miss Steeles", "the Miss Lucases", "the Misses Eshton"): a family name of the
    story's, never a given name ("Miss Williams" is no two Williams), nor one written once
    ("the Miss Smiths", of Harriet's kin, once in *Emma*)."""
    listed = list(people)
    given = {w for p in listed for w in p.given}
    families = {w for p in listed for w in p.surnames} | {
        w for p in listed if p.titles for w in p.bare | p.surnamish
    }
    found = {
        w
        for surface, count in written
        if count >= SISTERS_LEAST
        for w in names.sisters_family(surface)
    }
    return frozenset(found & families - given)


def sisters_written(text: str, people: Iterable[Person]) -> frozenset[str]:
    """`sisters` of the names "Miss" or "Misses" opens in `text`."""
    return sisters(Counter(MISSES.findall(text)).items(), people)


def eldest_and_younger(a: Person, b: Person, of_sisters: Collection[str]) -> bool:
    """Whether one of the two is "Miss" and a family name of sisters ("Miss Steele", of "the
    Miss Steeles"), which names the eldest daughter, and the other a "Miss" of the family by
    her given name ("Miss Lucy Steele"): a younger one."""
    return _eldest(a, b, of_sisters) or _eldest(b, a, of_sisters)


def _eldest(eldest: Person, younger: Person, of_sisters: Collection[str]) -> bool:
    if "miss" not in eldest.titles or eldest.given or "miss" not in younger.titles:
        return False
    return bool(younger.given and eldest.family & younger.family & set(of_sisters))


def read_russian_pet_forms(people: Iterable[Person]) -> None:
    """In a story that names PATRONYMIC_STORY people or more by their fathers' names (a Russian
    one, in translation), read a single word with a Russian pet ending as the pet form of the
    one given name of five letters or more the story writes beginning with its first three
    letters: "Katia" is Katerina Sergievna, "Arkasha" Arkady, "Thenichka" Theodosia
    Nikolaievna, "Vasia" Vasili Ivanitch: forms no list of English nicknames holds, whose
    endings English names rarely have ("Maria" of Martha, in an English story, is not read)."""
    listed = list(people)
    if sum(bool(p.fathers) for p in listed) < PATRONYMIC_STORY:
        return
    given = {w for p in listed for w in p.given if len(w) >= PET_OF_LEAST}
    for person in listed:
        if person.given or person.titles or len(person.bare) != 1:
            continue
        (word,) = person.bare
        full = {g for g in given if g[:3] == word[:3] and g != word}
        if russian_pet(word) and len(full) == 1:
            person.given |= full


def lone_families(people: Iterable[Person]) -> frozenset[str]:
    """The family names the story gives one woman only: every full name with it carries one
    given name (or pet forms of it), and no one else bears it but by a married woman's title
    ("Dean": Ellen Dean, Nelly Dean, "Mrs. Dean", "Mistress Dean")."""
    given_of: dict[str, set[str]] = {}
    others: set[str] = set()
    for person in people:
        for word in person.surnames:
            given_of.setdefault(word, set()).update(person.given)
        if not person.given and not wife_by_name(person):
            others |= person.surnamish | person.bare
    return frozenset(
        family
        for family, given in given_of.items()
        if family not in others and all(given_names.same_given(x, y) for x in given for y in given)
    )

"""Given names: when two can be one person's.

`nicknames` knows that Meg is Margaret, Teddy Theodore and Jack John; the US census lists of
given names (`loci.toolsets.story.census`) say which are men's and which women's, and which a
pet form is far commoner than as a name of its own. Short forms the nickname list lacks are read
from the names themselves: spellings of one diminutive ("Kitty", "Kittie"), a name cut short
("Tash" for Tashtego), a pet form built on a name's first letters ("Laurie" for Laurence), and
one woman's name in two languages' spelling ("Adela", "Adèle"), and a Russian pet form's ending.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from loci.sentences import GIVEN_ABBREVIATIONS
from loci.toolsets.story.census import census_sex, given_share
from loci.toolsets.story.names import PATRONYMIC, is_title

if TYPE_CHECKING:
    from nicknames import NickNamer

#: Endings of pet forms: English ("Bethy", "Laurie") and Russian ("Arkasha", "Anfisushka").
#: The fewest letters a name is cut by to make a pet form of it that begins it ("Eliza", of
#: Elizabeth): one or two letters make a spelling ("Nelle" of Nell) or a diminutive.
CUT_LEAST = 3
DIMINUTIVE_ENDINGS = ("ie", "y", "ey", "sha", "ushka", "enka", "ochka", "echka")
#: Endings that make a word from a name, not a longer form of it: a surname after a father
#: ("Johnson"), an adverb or an adjective, a man of a place ("Lakeman" is no longer "Lake").
NOT_NAME_ENDINGS = ("son", "sen", "ly", "ian", "ish", "man")
SHORTEST_SHORT_FORM = 4
FEASTS = frozenset({"michaelmas", "martinmas", "christmas", "candlemas", "lammas", "hallowmas"})
#: A "pet form" the census counts this many times as often as the name it would be short for
#: is a name of its own (John, not short for Jonathan; Jack, ten times rarer than John, is).
NAME_IN_ITS_OWN_RIGHT = 5
#: A story naming this many people by patronymics is read for Russian pet forms, which end so.
PATRONYMIC_STORY = 3
RUSSIAN_PET = re.compile(r"[a-z]{2,}(?:ia|ya|sha|ichka|echka|ushka|enka|iusha)")


def same_given(a: str, b: str, initials: bool = True) -> bool:
    """Whether two given names can be one person's: equal, an initial of the other ("R." and
    "Robert", or of a name the other is a pet form of: "W." and Billy; unless `initials` is
    false), a nickname of the other (Meg and Margaret), or a short form of it."""
    a, b = GIVEN_ABBREVIATIONS.get(a, a), GIVEN_ABBREVIATIONS.get(b, b)  # "Jas." is James
    if a == b:
        return True
    if len(a) == 1 or len(b) == 1:
        initial, name = sorted((a, b), key=len)
        return initials and (initial == name[0] or initial in {f[0] for f in formal(name)})
    return _nickname(a, b) or _short_given(a, b) or _short_given(b, a) or _vowel_variant(a, b)


def _vowel_variant(a: str, b: str) -> bool:
    """Whether `a` and `b` are one woman's name in two languages' spelling, the one ending in
    "a" and the other in "e" ("Adela" and "Adèle", "Louisa" and "Louise"): the census holds
    both for women's names."""
    if len(a) != len(b) or len(a) < 4 or a[:-1] != b[:-1] or {a[-1], b[-1]} != {"a", "e"}:
        return False
    return census_sex(a) == census_sex(b) == "f"


def _short_given(short: str, full: str) -> bool:
    """`short` a short or pet form of the given name `full`; a name cut from another that the
    census holds for the other sex is a name of its own ("Victor" is no Victoria; "Laurie",
    a pet form, may be Laurence)."""
    if not short_form(short, full):
        return False
    sexes = {census_sex(short), census_sex(full)}
    return _pet_form(short, full) or None in sexes or len(sexes) == 1


def anothers_pet_form(word: str, pet: str, carried: Iterable[str]) -> bool:
    """Whether `pet`, a shorter name the nickname list relates to `word`, is here the pet form
    of another name: one the person carries too (`carried`) and `word` is not. "Eliza" is
    short for Louisa and for Elizabeth; an Elizabeth's Eliza makes no Louisa of her."""
    if len(pet) >= len(word) or not _nickname(word, pet):
        return False
    return any(
        len(full) > len(pet)
        and full != word
        and same_given(pet, full, initials=False)
        and not same_given(word, full, initials=False)
        for full in carried
    )


def short_form(short: str, full: str, cut: bool = True) -> bool:
    """`short` cut from `full` ("tash", "tashtego"; unless `cut` is false), or a pet form
    built on its first letters ("laurie", "laurence"; "bethy", "beth"), at least four letters
    either way."""
    if full.endswith(NOT_NAME_ENDINGS) or PATRONYMIC.fullmatch(full) or full in FEASTS:
        return False  # "Johnson" is no longer John, nor "Nikolaievna", nor "Michaelmas"
    if cut and len(short) >= SHORTEST_SHORT_FORM and len(full) > len(short) + 1:
        return full.startswith(short) or _pet_form(short, full)
    return _pet_form(short, full)


def doubled_base(short: str) -> str | None:
    """The name `short` is a pet form of with its last consonant doubled and a diminutive
    ending ("rat" of "ratty", "tom" of "tommy"), if it is one."""
    for ending in DIMINUTIVE_ENDINGS:
        stem = short[: -len(ending)]
        doubled = len(stem) >= 4 and stem[-1] == stem[-2] and stem[-1] not in "aeiou"
        if short.endswith(ending) and doubled and not is_title(stem[:-1]):
            return stem[:-1]
    return None


def _pet_form(short: str, full: str) -> bool:
    """`short` is `full`'s first four letters or more, and a diminutive ending; or `full`,
    of three letters or more, with its last consonant doubled and the ending ("Ratty" for
    Rat, "Tommy" for Tom)."""
    if doubled_base(short) == full:
        return True
    for ending in DIMINUTIVE_ENDINGS:
        stem = short[: -len(ending)]
        fits = short.endswith(ending) and len(stem) >= SHORTEST_SHORT_FORM and full != short
        fits = fits and not is_title(stem)  # "Missie" is no pet form of Misselthwaite
        if fits and full.startswith(stem):
            return True
    return _short_stem_pet(short, full)


def _short_stem_pet(short: str, full: str) -> bool:
    """`short` a pet form on the first two or three letters of `full`, a longer name, with
    "ie" or "y" ("Evie" of Evelyn, "Andy" of Andrew), where the census holds both for one sex
    and `full` more often: a pet form commoner than the name it would be short for is a name
    of its own ("Mary", "Amy" and "Annie" are no Marianne, Amelia or Annette)."""
    stem = short_stem(short)
    if not stem or not full.startswith(stem):
        return False
    if len(full) <= len(short):
        return False  # "Lily" and "Lila", twins: two names of a length
    sex = census_sex(short)
    return sex is not None and sex == census_sex(full) and given_share(full) > given_share(short)


def short_stem(short: str) -> str:
    """The first two or three letters of a longer name that `short` may be a pet form on,
    with "ie" or "y" ("ev" of "evie", "and" of "andy"), if it may be one; else ""."""
    stem = short[:-2] if short.endswith("ie") else short[:-1] if short.endswith("y") else ""
    return stem if 2 <= len(stem) < SHORTEST_SHORT_FORM else ""


def _nickname(a: str, b: str) -> bool:
    """Whether `nicknames` makes one of `a`, `b` a pet form of the other, and the census does
    not hold the pet form a name in its own right, far commoner than its "formal" one: the
    list calls John a pet form of Jonathan, and a reader calls them two men. Nor is a name
    longer than the one it would be a pet form of, with no diminutive's ending: the list
    calls Hannah a pet form of Susan (of Susannah, once), and a reader, two women (Polly is
    Mary's, by its ending)."""
    if related(a).isdisjoint(_spellings(b)) and related(b).isdisjoint(_spellings(a)):
        return False
    if _anothers_by_its_start(a, b) or _anothers_by_its_start(b, a):
        return False
    longer, shorter = sorted((a, b), key=len, reverse=True)
    if len(longer) > len(shorter) and _longer_pet(longer, shorter):
        return False
    return not (_commoner(a, b) and a not in formal(b)) and not (
        _commoner(b, a) and b not in formal(a)
    )


def _anothers_by_its_start(pet: str, full: str) -> bool:
    """Whether `pet`, which the list relates to `full` though it begins otherwise, is cut
    from a commoner name the list calls it a pet form of: "Eliza" is Elizabeth's, and the
    list's Louisa is no Eliza (*Jane Eyre*'s Eliza Reed is no Louisa Eshton). A diminutive
    it begins ("Bob" of "Bobby"), a spelling ("Nell" of "Nelle") or a surname ("Dick" of
    "Dickson") is no such name."""
    if pet[:1] == full[:1] or len(pet) >= len(full):
        return False
    return any(
        other.startswith(pet)
        and len(other) >= len(pet) + CUT_LEAST
        and not other.endswith(DIMINUTIVE_ENDINGS)
        and given_share(other) > given_share(full)
        for other in formal(pet)
    )


def _longer_pet(longer: str, shorter: str) -> bool:
    """Whether the list gives `longer` only as a pet form of `shorter`, with no diminutive's
    ending to make it one ("Hannah" of Susan; not "Polly" of Mary, nor Esther of "Hetty")."""
    namer = _namer()
    pet = longer in namer.nicknames_of(shorter) and longer not in namer.canonicals_of(shorter)
    return pet and not longer.endswith(DIMINUTIVE_ENDINGS)


def _commoner(pet: str, full: str) -> bool:
    """Whether the census holds `pet` NAME_IN_ITS_OWN_RIGHT times as often as `full` (as a
    given name of either sex), and `full` at all."""
    share, full_share = given_share(pet), given_share(full)
    return full_share > 0 and share >= NAME_IN_ITS_OWN_RIGHT * full_share


@cache
def related(name: str) -> frozenset[str]:
    """Every name `nicknames` relates to any spelling of `name` (its nicknames, the names it
    is a nickname of), as spellings."""
    namer = _namer()
    found: set[str] = set()
    for spelling in _spellings(name) | _diminutives(name):
        found |= namer.nicknames_of(spelling) | namer.canonicals_of(spelling)
    return frozenset(s for name in found for s in _spellings(name))


def _diminutives(name: str) -> frozenset[str]:
    """A short given name's diminutives ("Nell": Nelly, Nellie), whose formal names are its
    own (the nickname list knows Nelly for Eleanor, not Nell)."""
    if name.endswith(DIMINUTIVE_ENDINGS) or given_share(name) == 0:
        return frozenset()
    return frozenset(name + ending for ending in DIMINUTIVE_ENDINGS)


def formal(name: str) -> frozenset[str]:
    """The names `nicknames` says `name` (any spelling of it) is a pet form of ("william"
    for "billy")."""
    namer = _namer()
    spellings = _spellings(name) | _diminutives(name)
    return frozenset(f for spelling in spellings for f in namer.canonicals_of(spelling))


def _spellings(name: str) -> frozenset[str]:
    """One diminutive's spellings: Kitty, Kittie, Kittey."""
    for ending in DIMINUTIVE_ENDINGS:
        stem = name[: -len(ending)]
        if name.endswith(ending) and len(stem) >= 2:
            return frozenset(stem + e for e in DIMINUTIVE_ENDINGS)
    return frozenset({name})


@cache
def _namer() -> NickNamer:
    from nicknames import NickNamer

    return NickNamer()


def russian_pet(word: str) -> bool:
    """Whether `word` (lower case) ends as a Russian pet form does ("mitia", "arkasha")."""
    return RUSSIAN_PET.fullmatch(word) is not None

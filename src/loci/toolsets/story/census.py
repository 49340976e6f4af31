"""The US census lists the `names` package ships (1990): how often each given name is a
man's or a woman's, and how often each word is a surname. They say which names are given
names, of which sex, and which words are given names far more than family names ("Martha",
never a surname, against "Williams")."""

from __future__ import annotations

from functools import cache

#: A given name is a man's (a woman's) when the census counts it this many times as often
#: among men (women).
CENSUS_MARGIN = 4
#: A word is a given name rather than a surname when the census holds it this many times as
#: often among given names (of either sex) as among surnames.
GIVEN_OVER_SURNAME = 4
#: The share (in percent, as the census counts) of surnames a family name many carry reaches:
#: about one American in twenty thousand ("Nguyen" 0.046, "Patel" 0.020, "Pham" 0.008).
SURNAME_COMMON = 0.005


def is_given_name(word: str) -> bool:
    """Whether the US census lists hold `word` as a given name ("Alphonse")."""
    men, women = _given()
    return word.lower() in men or word.lower() in women


def given_share(word: str) -> float:
    """The share of given names (of either sex) that are `word` (lower case)."""
    men, women = _given()
    return men.get(word, 0.0) + women.get(word, 0.0)


def is_common_surname(word: str) -> bool:
    """Whether `word` is a family name many carry ("Nguyen", "Patel"): at least
    SURNAME_COMMON percent of the census's surnames."""
    return _surnames().get(word.lower(), 0.0) >= SURNAME_COMMON


def is_surname(word: str) -> bool:
    """Whether the census's surnames list `word` at all ("Kellogg", "Semple"; not
    "Philanthropist")."""
    return _surnames().get(word.lower(), 0.0) > 0


def census_sex(given: str) -> str | None:
    """The sex the US census lists give a given name ("m", "f"), when one list holds it far
    more often than the other."""
    men, women = _given()
    man, woman = men.get(given, 0.0), women.get(given, 0.0)
    if man > CENSUS_MARGIN * woman:
        return "m"
    return "f" if woman > CENSUS_MARGIN * man else None


def given_not_surname(word: str) -> bool:
    """Whether `word` (lower case) is a given name far more than a surname: "martha",
    "hannah", "laurie"; not "williams" or "bell" (surnames as often)."""
    share = given_share(word)
    return share > 0 and share >= GIVEN_OVER_SURNAME * _surnames().get(word, 0.0)


@cache
def _given() -> tuple[dict[str, float], dict[str, float]]:
    """Given names with their share of men's and of women's names."""
    return _shares("dist.male.first"), _shares("dist.female.first")


@cache
def _surnames() -> dict[str, float]:
    """Surnames with their share of all surnames."""
    return _shares("dist.all.last")


def _shares(list_name: str) -> dict[str, float]:
    from importlib.resources import files

    text = (files("names") / list_name).read_text(encoding="ascii")
    return {
        line.split()[0].lower(): float(line.split()[1])
        for line in text.splitlines()
        if line.strip()
    }

"""Personal names: what one way of naming someone says.

The libraries made for names do the reading: `nameparser` knows the titles ("Mr.", "Captain",
"Aunt"), which of them go with a given name ("Sir William"), surname particles ("de Bourgh")
and suffixes; the US census lists of given names that the `names` package ships say which are
men's and which women's. What no library records of titles is kept in
`loci.toolsets.story.titles`; when two given names can be one person's, in
`loci.toolsets.story.given_names`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache

from loci.toolsets.story.census import census_sex, given_not_surname, is_given_name
from loci.toolsets.story.place_words import PLACE_HEADS
from loci.toolsets.story.titles import (
    DOMAIN_TITLES,
    GIVEN_TITLES,
    HONORIFICS,
    SAINTS,
    SEXED_TITLES,
    SURNAME_TITLES,
)

#: Words of address or affection written before a name that are no part of it ("Friend John",
#: "Dear Jo", "Poor Beth", "Old Stubb"): the name is the one after them.
ADDRESS_WORDS = frozenset(
    {"friend", "dear", "dearest", "darling", "poor", "good", "sweet", "honest", "brave"}
    | {"naughty", "silly"}  # "Naughty Cecil!"
    | {"old", "young", "little", "long", "big", "my", "our"}
)
#: Of those, the words that make a nickname the story writes whole ("Old Thunder", "Little
#: Nell", "Long John"): a mention keeps them, though the person it names is the one after.
NICKNAME_WORDS = frozenset({"old", "little", "long", "big"})
#: Suffixes that say which of a family's namesakes a name is ("Thomas Hale Sr." is not "Thomas
#: Hale Jr."), and the words before a name that say it too ("Old Tom", "Young Tom").
GENERATIONS = {
    **dict.fromkeys(("sr", "senior"), "senior"),
    **dict.fromkeys(("jr", "junior"), "junior"),
    **{"ii": "ii", "iii": "iii", "iv": "iv"},
}
ELDER_YOUNGER = {"old": "senior", "young": "junior"}
#: A number word after a name numbers its bearers as a generation's numeral does ("Jacques
#: Three", the third of the revolutionaries all called Jacques): no surname.
NUMBERS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"})
#: An epithet's article is no word of its name ("the Captain").
ARTICLES = frozenset({"the", "a", "an"})
#: Words nameparser lists as titles that, written before a name, are not one ("Her Jo").
NOT_TITLES = frozenset({"his", "her", "me", "first"})
#: A father's name made a middle name ("Dmitri Ivanovich", "Anna Petrovna"; in older
#: translations "Paul Petrovitch", "Arina Savishna"): no surname, the given name's. An English
#: "-witch" is a surname ("Abel Magwitch").
PATRONYMIC = re.compile(r"[a-z]{2,}(?:ovi?t?ch|evi?t?ch|ovna|evna|ichna|ishna)|[a-z]{3,}(?<!w)itch")
#: A patronymic's first letters name the father whatever the spelling ("Vasilitch",
#: "Vasilievitch").
FATHER_LETTERS = 4
_WORD = re.compile(r"[^\W\d_][\w'\u2019.-]*", re.UNICODE)
_POSSESSIVE = re.compile(r"['\u2019]s?$")


@dataclass(frozen=True)
class Name:
    """What a way of naming someone says (words in lower case, without dots).

    `bare` holds a single word that may be a given name or a surname ("Jo", "Bingley", "Miss
    Jo"); `surname_like` says it followed a title that goes with surnames ("Mr. Darcy").
    `husband` holds the given name in "Mrs. John Brooke", which is her husband's."""

    titles: frozenset[str] = frozenset()
    sex: str | None = None
    married: bool | None = None
    given: frozenset[str] = frozenset()
    surnames: frozenset[str] = frozenset()
    bare: frozenset[str] = frozenset()
    surname_like: bool = False
    saint: bool = False
    husband: frozenset[str] = field(default_factory=frozenset)
    #: Whether its surname is a ruler's domain written before the title ("the Marsh Queen"),
    #: no family's name.
    domain: bool = False
    #: Which of a family's namesakes it names ("senior": "Thomas Hale Sr.", "Old Tom";
    #: "junior": "Jr.", "Young Tom"; or a numeral's "ii", "iii"), if it says.
    generation: str | None = None
    #: The fathers its patronymics name, by their first letters ("Anna Sergievna": "serg";
    #: "Nikolaievna" and "Nikolaevna" are one father's "niko").
    fathers: frozenset[str] = frozenset()
    #: The words between a full name's given name and surname ("breck" of "Alan Breck
    #: Stewart"), which another of its names may end on ("Alan Breck").
    middle: frozenset[str] = frozenset()

    @property
    def words(self) -> frozenset[str]:
        """Every name word (no titles)."""
        return self.given | self.surnames | self.bare

    @property
    def full(self) -> bool:
        """A given name and a surname ("Jo March", "Mr. Dan Cody")."""
        return bool(self.given and self.surnames)

    @property
    def honorific(self) -> bool:
        """Whether a title of it is a person's for certain ("Mr.", "Captain", "Aunt"), not
        one of the words nameparser also takes for titles ("Right Whale", "First Lord")."""
        return bool(self.titles & HONORIFICS)

    @property
    def detail(self) -> int:
        """How much the name says: 2 for a full name, 1 for a titled name, 0 for a bare word."""
        return 2 if self.full else 1 if self.titles or self.surnames or self.given else 0


def key(surface: str) -> str:
    """How a name is looked up: lower case, titles without their dot, spaces collapsed."""
    words = [w.rstrip(".").lower() for w in surface.split()]
    return " ".join(w for w in words if w)


def unarticled(surface: str) -> str:
    """The key of a name without an article before it: "the Ferrywoman" is looked up as the
    name "Ferrywoman" the story keeps (a name is kept without its article)."""
    words = key(surface).split()
    return " ".join(words[1:] if len(words) > 1 and words[0] in ARTICLES else words)


def is_title(word: str) -> bool:
    """Whether `word` (any case, with or without its dot) is a title ("Mr.", "Captain")."""
    lowered = word.rstrip(".").lower()
    return lowered in HONORIFICS or lowered in _titles()


@lru_cache(maxsize=65_536)
def parse(surface: str) -> Name:
    """What a name as written says ("Mr. Fitzwilliam Darcy", "Lizzy", "Mrs. John Brooke")."""
    words = [
        _unaccented(_POSSESSIVE.sub("", w.rstrip(".")).lower()) for w in _WORD.findall(surface)
    ]
    generation = next((GENERATIONS[w] for w in words[1:] if w in GENERATIONS), None)
    if len(words) > 1 and words[0] in ELDER_YOUNGER:
        generation = ELDER_YOUNGER[words[0]]
    if len(words) > 1 and words[-1] in NUMBERS:
        generation = words.pop()
    while len(words) > 1 and (words[0] in ADDRESS_WORDS or words[0] in ARTICLES):
        words.pop(0)
    titles: list[str] = []
    while len(words) > 1 and is_title(words[0]):
        titles.append(words.pop(0))
    sex, married = _sex(titles)
    patronymics = [w for w in words if PATRONYMIC.fullmatch(w)] if len(words) > 1 else []
    base = Name(
        titles=frozenset(titles),
        sex=sex,
        married=married,
        saint=bool(SAINTS & set(titles)),
        generation=generation,
        fathers=frozenset(w[:FATHER_LETTERS] for w in patronymics),
    )
    domain = _domain(base, words)
    if domain is not None:
        return domain
    words = [w for w in words if w not in _particles() and w not in _suffixes()] or words
    named = [w for w in words if not PATRONYMIC.fullmatch(w)] if len(words) > 1 else words
    if not named:
        return base
    if len(named) == 1:
        if len(words) > 1 and named[0] == words[0]:
            return _replace(base, given=frozenset(named))  # "Anna Petrovna"
        return _single(base, named[0], titles)  # "Ivanovna Orlova", her given name cut off
    words = named
    ruler = _ruler_of(base, words)
    if ruler is not None:
        return ruler
    given = frozenset({words[0]})
    if len(words) > 2 and is_given_name(words[0]) and given_not_surname(words[-1]):
        return _replace(base, given=given)  # "Wendy Moira Angela": given names, no surname
    # "Mrs. John Brooke": her husband's name; "Mrs. Laura Lyons": hers, a woman's name.
    if married and sex == "f" and census_sex(words[0]) != "f":
        return _replace(base, surnames=frozenset({words[-1]}), husband=given)
    middle = frozenset(words[1:-1])  # "breck" of "Alan Breck Stewart"
    return _replace(base, given=given, surnames=frozenset({words[-1]}), middle=middle)


def _unaccented(word: str) -> str:
    """`word` without its accents: "Adèle" and "Adele" are one name, and the census and the
    nickname list know the name only so."""
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _domain(base: Name, words: list[str]) -> Name | None:
    """What a name made with "of" says ("Wicked Witch of the West": words "wicked" and
    "witch" of the domain "west"), the domain's last word standing as its surname: the witches
    of the West and of the East are two, and the Queen of the Field Mice is the Queen of the
    Mice. None for a name without "of". `words` follow the name's titles."""
    at = words.index("of") if "of" in words[:-1] else -1
    if at < 0 or (at == 0 and not base.titles):
        return None
    if not base.titles and words[-1] in PLACE_HEADS and not any(map(is_title, words[:at])):
        return parse(" ".join(words[:at]))  # "Toad of Toad Hall" is Toad, from his hall
    return _replace(base, bare=frozenset(words[:at]), surnames=frozenset(words[-1:]))


def _ruler_of(base: Name, words: list[str]) -> Name | None:
    """What a domain and a ruler's title say ("Marsh Queen", "Monkey King"): the ruler of that
    domain, as "the Queen of the Marsh" says it. None for any other name."""
    if len(words) != 2 or base.titles or words[1] not in DOMAIN_TITLES or is_given_name(words[0]):
        return None
    sex, _ = _sex([words[1]])
    return _replace(
        base,
        titles=frozenset(words[1:]),
        sex=sex,
        surnames=frozenset(words[:1]),
        domain=True,
    )


def takes_of(head: str) -> bool:
    """Whether the name written `head` may go on with "of" and a name: a rank or an epithet
    ("Duke", "Wicked Witch"), not a person's own title or given name ("Mr. Darcy", "Jane")."""
    words = [w.rstrip(".") for w in head.split()]
    words = words[1:] if words and words[0].lower() in ARTICLES else words
    if not words or len(words) > 3 or any(len(w) < 2 for w in words):
        return False
    return all(
        w.lower() in DOMAIN_TITLES
        or not (w.lower() in HONORIFICS or w.lower() in SAINTS or is_given_name(w))
        for w in words
    )


def sisters_family(written: str) -> frozenset[str]:
    """The family names `written` may call two daughters or more by: "Misses" and the name
    ("the Misses Eshton": eshton), or "Miss" and its plural ("the Miss Steeles": steele,
    steel); none for any other name."""
    name = parse(written)
    if len(name.bare) != 1:
        return frozenset()
    (word,) = name.bare
    if name.titles == {"misses"}:
        return frozenset({word})
    if name.titles == {"miss"}:
        return frozenset({word.removesuffix("s"), word.removesuffix("es")} - {word})
    return frozenset()


def _single(base: Name, word: str, titles: list[str]) -> Name:
    last_title = titles[-1] if titles else None
    if last_title in GIVEN_TITLES:
        return _replace(base, given=frozenset({word}))
    return _replace(base, bare=frozenset({word}), surname_like=last_title in SURNAME_TITLES)


def _replace(base: Name, **changes: object) -> Name:
    values = {name: getattr(base, name) for name in base.__dataclass_fields__}
    values.update(changes)
    return Name(**values)


def _sex(titles: list[str]) -> tuple[str | None, bool | None]:
    """The sex and marriage the titles say (the first title that says them)."""
    for title in titles:
        if title in SEXED_TITLES:
            return SEXED_TITLES[title]
    return None, None


@cache
def _titles() -> frozenset[str]:
    from nameparser.config import CONSTANTS

    return frozenset(CONSTANTS.titles) - NOT_TITLES


@cache
def _particles() -> frozenset[str]:
    from nameparser.config import CONSTANTS

    return frozenset(CONSTANTS.prefixes) - SAINTS


@cache
def _suffixes() -> frozenset[str]:
    from nameparser.config import CONSTANTS

    return frozenset(CONSTANTS.suffix_not_acronyms) - {"i", "v"}

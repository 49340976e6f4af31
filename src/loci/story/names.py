"""Personal names: their parts, and when two ways of naming are the same person.

"Mr. Darcy", "Darcy" and "Fitzwilliam Darcy" share a surname and nothing that conflicts;
"Lizzy", "Eliza" and "Elizabeth" are one given name through the nickname map; "Mr. Bennet" and
"Mrs. Bennet" conflict by title, as do "Mrs." and "Miss" (married and unmarried).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

#: Titles and the group they belong to: two titles of different groups are different people.
TITLES: dict[str, str] = {
    "mr": "man",
    "mister": "man",
    "sir": "man",
    "lord": "man",
    "master": "man",
    "monsieur": "man",
    "m": "man",
    "herr": "man",
    "signor": "man",
    "don": "man",
    "king": "man",
    "prince": "man",
    "duke": "man",
    "father": "man",
    "uncle": "man",
    "brother": "man",
    "mrs": "wife",
    "madame": "wife",
    "mme": "wife",
    "lady": "wife",
    "queen": "wife",
    "duchess": "wife",
    "mother": "wife",
    "aunt": "wife",
    "miss": "maid",
    "mademoiselle": "maid",
    "mlle": "maid",
    "princess": "maid",
    "sister": "maid",
    "ms": "woman",
    "dr": "any",
    "doctor": "any",
    "captain": "any",
    "colonel": "any",
    "general": "any",
    "major": "any",
    "lieutenant": "any",
    "professor": "any",
    "reverend": "any",
    "rev": "any",
    "saint": "any",
    "st": "any",
    "count": "any",
    "countess": "wife",
    "baron": "man",
    "inspector": "any",
    "sergeant": "any",
    "judge": "any",
    "governor": "any",
}
#: Titles that name a person by given name ("Sir William", "Lady Catherine").
GIVEN_NAME_TITLES = frozenset(
    {
        "sir",
        "lady",
        "lord",
        "king",
        "queen",
        "prince",
        "princess",
        "father",
        "mother",
        "sister",
        "brother",
        "aunt",
        "uncle",
        "saint",
        "st",
        "master",
    }
)
_WOMEN = frozenset({"wife", "maid", "woman"})
#: Common English short forms of given names (the form on the right is the full name).
NICKNAMES: dict[str, str] = {
    "lizzy": "elizabeth",
    "lizzie": "elizabeth",
    "eliza": "elizabeth",
    "liz": "elizabeth",
    "beth": "elizabeth",
    "betsy": "elizabeth",
    "bess": "elizabeth",
    "betty": "elizabeth",
    "kitty": "catherine",
    "kate": "catherine",
    "katie": "catherine",
    "cathy": "catherine",
    "jenny": "jane",
    "jack": "john",
    "johnny": "john",
    "will": "william",
    "bill": "william",
    "billy": "william",
    "willy": "william",
    "bob": "robert",
    "bobby": "robert",
    "rob": "robert",
    "dick": "richard",
    "rick": "richard",
    "tom": "thomas",
    "tommy": "thomas",
    "ned": "edward",
    "ted": "edward",
    "teddy": "edward",
    "harry": "henry",
    "hal": "henry",
    "jim": "james",
    "jimmy": "james",
    "jamie": "james",
    "charlie": "charles",
    "chuck": "charles",
    "fanny": "frances",
    "fran": "frances",
    "meg": "margaret",
    "maggie": "margaret",
    "peggy": "margaret",
    "polly": "mary",
    "molly": "mary",
    "sally": "sarah",
    "sue": "susan",
    "susie": "susan",
    "annie": "anne",
    "nan": "anne",
    "nancy": "anne",
    "ben": "benjamin",
    "sam": "samuel",
    "fred": "frederick",
    "freddie": "frederick",
    "georgie": "georgiana",
    "nell": "eleanor",
    "nelly": "eleanor",
    "tony": "anthony",
    "joe": "joseph",
    "matt": "matthew",
    "mike": "michael",
    "nick": "nicholas",
    "pat": "patrick",
    "steve": "stephen",
    "andy": "andrew",
    "alex": "alexander",
    "sandy": "alexander",
    "dan": "daniel",
    "danny": "daniel",
    "dave": "david",
    "davy": "david",
    "ed": "edward",
    "gus": "augustus",
    "hank": "henry",
    "jo": "josephine",
    "abby": "abigail",
    "becky": "rebecca",
    "lucy": "lucia",
}
#: Words that join a surname ("de Bourgh", "van Helsing") and are not names themselves.
PARTICLES = frozenset({"de", "du", "van", "von", "der", "la", "le", "di", "da", "del", "st."})
_SPLIT = re.compile(r"[^\W\d_][\w'\u2019.-]*", re.UNICODE)


def key(surface: str) -> str:
    """How a name is looked up: lower case, titles without their dot, spaces collapsed."""
    words = [w.rstrip(".").lower() for w in surface.split()]
    return " ".join(w for w in words if w)


@dataclass
class Parts:
    """What a name says: its title groups, given names, surnames, and single bare words that
    may be either (as the normalised, lower-case forms)."""

    titles: set[str] = field(default_factory=set)
    given: set[str] = field(default_factory=set)
    surnames: set[str] = field(default_factory=set)
    bare: set[str] = field(default_factory=set)

    def absorb(self, other: Parts) -> None:
        """Add another name's parts (a new alias of the same person)."""
        self.titles |= other.titles
        self.given |= other.given
        self.surnames |= other.surnames
        self.bare |= other.bare

    def to_json(self) -> dict[str, list[str]]:
        """The parts as JSON lists."""
        return {
            name: sorted(getattr(self, name)) for name in ("titles", "given", "surnames", "bare")
        }

    @classmethod
    def from_json(cls, data: dict[str, list[str]]) -> Parts:
        """Parts stored by :meth:`to_json`."""
        return cls(*(set(data.get(name, [])) for name in ("titles", "given", "surnames", "bare")))


def parse(surface: str) -> Parts:
    """The parts of a personal name as written ("Mr. Fitzwilliam Darcy", "Lizzy")."""
    words = [w.rstrip(".").lower() for w in _SPLIT.findall(surface)]
    parts = Parts()
    title = None
    while words and words[0] in TITLES and len(words) > 1:
        title = words.pop(0)
        parts.titles.add(TITLES[title])
    words = [w for w in words if w not in PARTICLES] or words
    if not words:
        return parts
    if len(words) == 1:
        word = given_form(words[0])
        if title is None:
            parts.bare.add(word)
        elif title in GIVEN_NAME_TITLES:
            parts.given.add(word)
        elif TITLES[title] == "maid":  # "Miss Elizabeth" and "Miss Bennet": either name
            parts.bare.add(word)
        else:  # "Mr. Darcy", "Colonel Fitzwilliam"
            parts.surnames.add(words[0])
        return parts
    parts.given.add(given_form(words[0]))
    parts.surnames.add(words[-1])
    return parts


def given_form(word: str) -> str:
    """A given name in its full form ("lizzy" -> "elizabeth")."""
    return NICKNAMES.get(word, word)


def conflicts(a: Parts, b: Parts) -> bool:
    """Whether the two names cannot be one person."""
    if a.surnames and b.surnames and not a.surnames & b.surnames:
        return True
    if a.given and b.given and not _same_given(a.given, b.given):
        return True
    return _titles_conflict(a.titles, b.titles)


def shares_a_name(a: Parts, b: Parts) -> bool:
    """Whether the names have a name (not a title) in common."""
    a_any = a.given | a.surnames | a.bare
    b_any = b.given | b.surnames | b.bare
    return bool(
        a.given & (b.given | b.bare)
        or a.surnames & (b.surnames | b.bare)
        or a.bare & b_any
        or b.bare & a_any
    )


def same_person(new: Parts, known: Parts) -> bool:
    """Whether a newly met name belongs to a known person. A person known only by title and
    surname ("Mr. Bennet") takes a name with a given name ("Jane Bennet") only with a title
    that agrees, since a family shares the surname."""
    if conflicts(new, known) or not shares_a_name(new, known):
        return False
    if new.given and not known.given and known.titles and not new.titles:
        return bool(new.given & known.bare)
    return not (
        known.surnames and not known.given and new.given and not (new.titles & known.titles)
    )


def _same_given(a: set[str], b: set[str]) -> bool:
    """Given names agree: one in common, or an initial of the other ("R." and "Robert")."""
    if a & b:
        return True
    initials_a = {w for w in a if len(w) == 1}
    initials_b = {w for w in b if len(w) == 1}
    return any(w[0] in initials_b for w in a) or any(w[0] in initials_a for w in b)


def is_bare(parts: Parts) -> bool:
    """A single word with no title ("Bingley", "Lizzy")."""
    return bool(parts.bare) and not (parts.titles or parts.given or parts.surnames)


def preference(new: Parts, surface: str) -> Callable[[Parts, int, bool], tuple[int, int, int]]:
    """How to choose among the known people a new name fits: the most mentioned, except that
    a bare word goes first to someone not known only as Mrs. or Miss (narration names men by
    surname alone far more than women), and a pet name ("Kitty") only to someone the story
    also names without a title."""
    nickname = surface.strip().lower() in NICKNAMES
    bare = is_bare(new)

    def key(known: Parts, mentions: int, untitled: bool) -> tuple[int, int, int]:
        if bare and nickname and not untitled:
            return (-1, 0, mentions)
        # A full name goes first to someone known by its given name (a family shares the
        # surname); a bare word first to someone not known only as Mrs. or Miss.
        same_given = 1 if new.given & (known.given | known.bare) else 0
        womanly = bool(known.titles) and known.titles <= _WOMEN
        return (same_given, 0 if (bare or not new.given & known.given) and womanly else 1, mentions)

    return key


def _titles_conflict(a: set[str], b: set[str]) -> bool:
    groups_a = a - {"any"}
    groups_b = b - {"any"}
    if not groups_a or not groups_b:
        return False
    if groups_a & groups_b:
        return False
    # "Ms." agrees with either "Mrs." or "Miss"; men and women never agree.
    women_a, women_b = groups_a <= _WOMEN, groups_b <= _WOMEN
    return not (women_a and women_b and ("woman" in groups_a or "woman" in groups_b))

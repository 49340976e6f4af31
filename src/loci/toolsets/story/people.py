"""A person being gathered from the names a story uses, and when two can be one.

A person holds the words of its names by what they are: given names ("Jo"), surnames
("March"), single words that may be either ("Miss Jo", "Bingley"), and words after a title
that goes with surnames ("Mr. Darcy"); with the sexes and marriages its titles say, and the
cues of all its mentions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from loci.toolsets.story import census, given_names, names, titles
from loci.toolsets.story.kinds import Votes
from loci.toolsets.story.titles import PLAIN, RANKS

WOMENS_PLAIN = frozenset({"mrs", "miss", "ms"})
#: A man's plain title, in the English a story's speakers use ("Mester") and in the French,
#: German or Italian of a foreigner among them ("Monsieur Lawrence", as Poirot says it).
MISTER = frozenset({"mr", "mister", "mester", "monsieur", "herr", "signor"})
#: Titles of a doctor, a calling seldom written as "Mr." of the same man, never "Mrs." (his wife).
DOCTOR = frozenset({"dr", "doctor"})
#: Pronouns taking a name up overrule the sex the census gives its given name when this many.
CENSUS_OUTVOTED = 10
#: Single letters: an initial shares no name by itself ("Miss F" is no "F. C. Churchill").
INITIALS = frozenset("abcdefghijklmnopqrstuvwxyz")
#: A plain title and a full name written this often tell their bearer from the one the title and
#: family name alone name: "Mr. John Knightley" (29 times) is not "Mr. Knightley", his brother.
DISTINGUISHED_LEAST = 10
#: Ranks of arms, as the story may shorten them. Someone the story calls by a rank is seldom
#: "Mr." too ("Captain Tilney" is Frederick; "Mr. Tilney" his brother Henry), never "Miss" or
#: "Mrs." ("General Tilney" is not Miss Tilney, his daughter), and not by another rank (a
#: man promoted is a story's rarer case than a father and son of two ranks).
ARMS = {
    **dict.fromkeys(("captain", "capt", "cap'n", "cap\u2019n"), "captain"),
    **dict.fromkeys(("colonel", "col"), "colonel"),
    **dict.fromkeys(("general", "gen"), "general"),
    **dict.fromkeys(("lieutenant", "lt"), "lieutenant"),
    **dict.fromkeys(("sergeant", "sgt"), "sergeant"),
    "major": "major",
    "admiral": "admiral",
}


@dataclass
class Person:
    """The names so far of one person, and what they say together."""

    id: int
    members: list[int]
    count: int
    votes: Votes
    given: set[str] = field(default_factory=set)
    surnames: set[str] = field(default_factory=set)
    bare: set[str] = field(default_factory=set)
    surnamish: set[str] = field(default_factory=set)
    titles: set[str] = field(default_factory=set)
    sexes: set[str] = field(default_factory=set)
    married: set[bool] = field(default_factory=set)
    detail: int = 0
    #: The sex the story gives its given names elsewhere ("Miss Amy", "John ... he").
    name_sex: str | None = None
    #: Whether a name of it is known to be a person's (not only found again by its words).
    character: bool = False
    #: Which of a family's namesakes its names say it is ("senior", "junior"), if any.
    generations: set[str] = field(default_factory=set)
    #: The fathers its patronymics name (`loci.toolsets.story.names.Name.fathers`).
    fathers: set[str] = field(default_factory=set)
    #: A wife's husband's given names ("joe" of "Mrs. Joe Gargery").
    husbands: set[str] = field(default_factory=set)
    #: The words of names the story restates it by ("darnay" of "Charles Evremonde, called
    #: Darnay") and, in the cast, its middle names: another of its names' surnames, maybe.
    called: set[str] = field(default_factory=set)
    #: The plain titles and family names a full name of it is written with again and again
    #: ("Mr. John Knightley": ("mr", "knightley")), to tell it from the family's head.
    distinguished: set[tuple[str, str]] = field(default_factory=set)
    #: The mentions of its full names written with each given name ("charles": 33).
    given_mentions: Counter[str] = field(default_factory=Counter)
    #: Whether its only name is a full name's surname: few "she" make it no woman.
    family_name_alone: bool = False

    @classmethod
    def named(cls, surface_id: int, name: names.Name, votes: Votes) -> Person:
        """A person known by one name."""
        person = cls(surface_id, [surface_id], votes.mentions, votes)
        person.given |= name.given
        person.surnames |= name.surnames
        (person.surnamish if name.surname_like else person.bare).update(name.bare)
        person.titles |= name.titles
        person.sexes |= {name.sex} if name.sex else set()
        person.married |= set() if name.married is None else {name.married}
        person.detail = name.detail
        person.generations |= {name.generation} if name.generation else set()
        person.fathers |= name.fathers
        person.husbands |= name.husband
        if name.surnames:
            person.given_mentions.update(dict.fromkeys(name.given, votes.mentions))
        if votes.mentions >= DISTINGUISHED_LEAST:
            person.distinguished |= plain_family(name)
        return person

    @classmethod
    def of_names(cls, surface_id: int, written: Sequence[str]) -> Person:
        """One person known by all the names `written` (an entity's aliases), without cues."""
        person = cls.named(surface_id, names.parse(written[0]), Votes())
        for name in written[1:]:
            person.absorb(cls.named(surface_id, names.parse(name), Votes()))
        return person

    @property
    def words(self) -> set[str]:
        """Every word of its names."""
        return self.given | self.surnames | self.bare | self.surnamish

    @property
    def family(self) -> set[str]:
        """The words that may be its family's name."""
        return self.surnames | self.surnamish | self.bare

    @property
    def sex(self) -> str | None:
        """Its sex: from titles, else from clear pronouns, else from its given name (as the
        story uses it elsewhere, else as the census lists it), else a man's for a rank of
        arms."""
        if len(self.sexes) == 1:
            return next(iter(self.sexes))
        if self.sexes:
            return None
        by_rank = "m" if arms(self.titles) else None  # "General Carrow", whom no "he" took up
        return self.pronouns_sex() or self.name_sex or _census_sex(self.given) or by_rank

    def pronouns_sex(self) -> str | None:
        """The sex the pronouns taking its names up say, unless they are few and say
        otherwise than the census of its given name: "Frank", talked of by the heroine, is
        taken up by "she" six times in seven, and is a man. Few "she" make no woman of a family
        name alone, a man's far more often ("Hartright" in Marian's diary, of Laura's talk)."""
        voted = self.votes.sex()
        if voted is None or self.votes.male + self.votes.female >= CENSUS_OUTVOTED:
            return voted
        agrees = _census_sex(self.given | self.bare) in (None, voted)
        return voted if agrees and not (self.family_name_alone and voted == "f") else None

    def absorb(self, other: Person) -> None:
        """Take another person's names (they are one)."""
        self.members += other.members
        self.count += other.count
        self.votes = self.votes + other.votes
        # A single word that joined a fuller name was one of its names (a given name, a
        # surname or a pet form of one); kept as a word that may be either, it would let the
        # next guest join by it ("Fitzwilliam" is Darcy's given name and the colonel's surname).
        # A pet form joining a single word ("Joanna" to "Jo") stays an alias: its words would
        # let names it is the pet form of join next ("Hannah", through Joanna).
        if not (self.given or self.surnames) and other.words & self.words:
            self.bare |= other.bare
            self.surnamish |= other.surnamish
        self.given |= other.given
        self.surnames |= other.surnames
        self.titles |= other.titles
        self.sexes |= other.sexes
        self.married |= other.married
        self.detail = max(self.detail, other.detail)
        self.name_sex = self.name_sex or other.name_sex
        self.family_name_alone = self.family_name_alone and other.family_name_alone
        self.character |= other.character
        self.generations |= other.generations
        self.fathers |= other.fathers
        self.husbands |= other.husbands
        self.called |= other.called
        self.distinguished |= other.distinguished
        self.given_mentions += other.given_mentions


def _census_sex(given: set[str]) -> str | None:
    found = {census.census_sex(word) for word in given} - {None}
    return found.pop() if len(found) == 1 else None


def names_conflict(
    a: Person,
    b: Person,
    given_words: Collection[str],
    marriage: bool = True,
    lone: Collection[str] = (),
    met: bool = True,
) -> bool:
    """Whether the names of `a` and `b` cannot be one person's. `given_words` are the words
    the story uses as given names: "Mrs." and "Miss" conflict (unless `marriage` is false)
    only with a family name ("Miss Meg" marries and becomes "Mrs. Meg"; "Miss Bennet" is not
    "Mrs. Bennet"), and a "Miss" by a given name with a "Mrs." of the family only when the
    story names more of the family than one woman (`lone`: the family names it does not, see
    `name_readings.lone_families`). `met`: whether the two met in a sentence of the narration,
    which a family's head and the one written by title and full name to tell them apart do
    (`_the_familys_head`)."""
    a_surnames, b_surnames = a.surnames | a.surnamish, b.surnames | b.surnamish
    # A name the story restates one by may be another's surname ("Charles Evremonde, called Darnay")
    fit = _surnames_fit(a_surnames, b_surnames) or a.called & b_surnames or b.called & a_surnames
    if a_surnames and b_surnames and not fit:
        return True
    if (
        a.given
        and b.given
        and not any(given_names.same_given(x, y) for x in a.given for y in b.given)
    ):
        return True
    same_full_name = a.given == b.given and a.surnames == b.surnames and bool(a.surnames)
    if sex_conflict(a, b) or (_ranks_conflict(a.titles, b.titles) and not same_full_name):
        return True
    if _saints_namesake(a, b) or _saints_namesake(b, a):
        return True
    if met and head_and_formal(a, b):
        return True
    if a.fathers and b.fathers and not a.fathers & b.fathers:
        return True  # "Anna Sergievna" and "Anna Vlasievna": two fathers' daughters
    if a.generations and b.generations and a.generations != b.generations:
        return True  # "Thomas Hale Sr." and "Thomas Hale Jr.", "Old Tom" and "Young Tom"
    if _monarch_and_family(a, b) or _monarch_and_family(b, a):
        return True
    if _wifes_family_name(a, b) or _wifes_family_name(b, a):
        return True
    family = (a.family & b.family) - set(given_words)
    if not (marriage and family):
        return False
    return _miss_and_mrs(a, b, family, lone) or _miss_and_mrs(b, a, family, lone)


def _miss_and_mrs(miss: Person, mrs: Person, family: set[str], lone: Collection[str]) -> bool:
    """Whether `miss` is a "Miss" and `mrs` a "Mrs." of the family name: "Miss Bennet" and
    "Mrs. Bennet"; "Miss Isabella" Linton and "Mrs. Linton"; not "Miss Nelly" and "Mrs. Dean"
    when Ellen Dean is the only Dean."""
    by_family = (miss.bare | miss.surnamish) & family
    if not (False in miss.married and True in mrs.married):
        return False
    return bool(by_family) or not family <= set(lone)


def wife_by_name(person: Person) -> bool:
    """A woman known only by a title no "Miss" and a family name ("Mrs. Dean", "Mistress
    Dean")."""
    titled = bool(person.titles) and False not in person.married
    return person.sex == "f" and titled and not person.given


def _surnames_fit(a: set[str], b: set[str]) -> bool:
    """Whether two sets of family names can be one person's: a shared one, or an initial of
    the other's ("Mr. E." of Mr. Elton, as a letter writes it)."""
    return bool(a & b) or _initial_of(a, b) or _initial_of(b, a)


def _initial_of(initials: set[str], words: set[str]) -> bool:
    return any(len(w) > 1 and w[:1] in initials for w in words)


def _saints_namesake(saint: Person, other: Person) -> bool:
    """Whether `saint` is named by a saint's name ("St. John" Rivers) and `other`, untitled so,
    carries the saint's word without the saint's family name ("John", "John Reed"): the
    saint's name is a name of its own. "Mr. Rivers" and "John Rivers" may be his."""
    if not saint.titles & titles.SAINTS or other.titles & titles.SAINTS:
        return False
    word = (saint.given | saint.bare) & (other.given | other.bare)
    return bool(word) and not saint.surnames & other.surnames


def plain_family(name: names.Name) -> set[tuple[str, str]]:
    """The plain titles and family names of a full name written with a plain title ("Mr. John
    Knightley": ("mr", "knightley")); none of another name."""
    if not name.given:
        return set()
    return {(t, w) for t in name.titles & PLAIN for w in name.surnames}


def head_and_formal(a: Person, b: Person) -> bool:
    """Whether one of the two is a family's head and the other written formally
    (`_the_familys_head`)."""
    return _the_familys_head(a, b) or _the_familys_head(b, a)


def _the_familys_head(head: Person, other: Person) -> bool:
    """Whether `head` is named by a plain title and the family name alone ("Mr. Knightley")
    where `other` is written again and again with that title and a given name too ("Mr. John
    Knightley"): the story tells them apart so, if they ever meet in a sentence. One who never
    meets it is that person written formally ("Mr. Jarvis Lorry", 12 times, is "Mr. Lorry")."""
    if head.given:
        return False
    return any((t, w) in other.distinguished for t in head.titles for w in head.surnamish)


def _monarch_and_family(monarch: Person, other: Person) -> bool:
    """Whether one is a monarch ("King George") and the other, untitled so, has a family name
    ("George Merry", a pirate): a king is no one's George of a family."""
    crowned = titles.MONARCHS
    return bool(monarch.titles & crowned) and not other.titles & crowned and bool(other.surnames)


def _wifes_family_name(word: Person, wife: Person) -> bool:
    """Whether `word` is a family name alone ("Wicket") and `wife` a married woman titled by
    it ("Mrs. Wicket"): the word alone names her husband or her family, unless the pronouns
    taking it up say it is a woman's, or it is mostly called out in dialogue and they do not
    say a man's (a housekeeper, '"Moss," he said')."""
    alone = not (word.given or word.surnames or word.surnamish or word.titles)
    family = alone and bool(word.bare & wife.surnamish)
    sex = word.votes.sex()
    called = 2 * word.votes.addressed >= word.votes.mentions and sex != "m"
    wifes = wife.sexes == {"f"} and True in wife.married
    return family and wifes and sex != "f" and not called


def arms(titles: Iterable[str]) -> set[str]:
    """The ranks of arms among `titles`, unabbreviated."""
    return {ARMS[title] for title in titles if title in ARMS}


def titles_differ(a: Person, b: Person) -> bool:
    """Whether one is called by a rank of arms and the other by another rank or by "Mr." (two
    people, where either could be someone else: "Captain Tilney" and "Mr. Tilney")."""
    a_arms, b_arms = arms(a.titles), arms(b.titles)
    called = bool(a_arms or a.titles & PLAIN) and bool(b_arms or b.titles & PLAIN)
    return bool(a_arms or b_arms) and a_arms != b_arms and called


def callings_differ(a: Person, b: Person) -> bool:
    """Whether one is called "Dr." and the other "Mr." or "Mrs." (cousins as often as one
    person: "Dr. Craven" and "Mr. Craven" in *The Secret Garden*): a suggestion offers no
    such pair, though the cast may join them on other evidence."""
    a_doctor, b_doctor = bool(a.titles & DOCTOR), bool(b.titles & DOCTOR)
    return a_doctor != b_doctor and bool((a.titles | b.titles) & PLAIN)


def sex_conflict(a: Person, b: Person) -> bool:
    """Whether one is a man and the other a woman."""
    return bool(a.sex and b.sex and a.sex != b.sex)


def _ranks_conflict(a: set[str], b: set[str]) -> bool:
    a_arms, b_arms = arms(a), arms(b)
    a_office, b_office = a_arms | a & DOCTOR, b_arms | b & DOCTOR
    if (a_office and b & WOMENS_PLAIN) or (b_office and a & WOMENS_PLAIN):
        return True
    if a_arms and b_arms and not a_arms & b_arms:
        return True  # "General Carrow" and his son "Captain Carrow"
    a_ranks, b_ranks = a & RANKS - b, b & RANKS - a
    return bool((a_ranks and b & PLAIN) or (b_ranks and a & PLAIN))


def shares_a_name(guest: Person, host: Person, ranked_pets: bool = False) -> bool:
    """Whether a word of the guest's names is one of the host's (by what the words are). A
    pet or short form ("Kitty" for Catherine) links no one a title of rank names: Kitty is
    not Lady Catherine (unless `ranked_pets`: a suggestion may weigh "Harry" for Lord Henry,
    as his friends call him). An initial shares nothing by itself: it only fits a name that
    shares another word ("R. Walton" and Robert Walton, by the surname), never "Roman" or
    "Rothwick" by their first letter. A wife may be called by her husband's given name."""
    familiar = ranked_pets or not (guest.titles & RANKS or host.titles & RANKS)
    for word in guest.given:
        if _given_in(word, host.given | host.bare, familiar):
            return True
    for word in guest.surnames | guest.surnamish:
        if word in host.surnames | host.bare | host.surnamish:
            return True
    if _by_husbands_name(guest, host) or _by_husbands_name(host, guest):
        return True
    own = host.words - host.husbands  # "Jo" is no "Mrs. Joe"'s: "Joe" is her husband's
    # After "Mr.", "Miss", a word no census given name is a family's: no "Milly" of Millward.
    family = {w for w in host.bare if not census.is_given_name(w)} if host.titles & PLAIN else set()
    for word in guest.bare - INITIALS:
        if word in own:
            return True
        if familiar and (
            _given_in(word, (host.given | host.bare) & own - family)
            or any(_a_form_of_surname(word, s) for s in host.surnames | family)
        ):
            return True
    return False


def _by_husbands_name(wife: Person, other: Person) -> bool:
    """Whether `wife` is called by `other`'s husband's given name ("Mrs. Joe" Gargery)."""
    return True in wife.married and True in other.married and bool(wife.bare & other.husbands)


def _a_form_of_surname(word: str, surname: str) -> bool:
    """Whether a word is a surname cut short ("Tash" for Tashtego) or a pet form of one that
    is a given name too ("Laurie" for Laurence). A given name is a name of its own: "Dick"
    is no Dickens, "Harry" no Harrowden."""
    if census.is_given_name(word):
        return census.is_given_name(surname) and given_names.short_form(word, surname, cut=False)
    return given_names.short_form(word, surname)


def _given_in(word: str, given: Iterable[str], familiar: bool = True) -> bool:
    carried = set(given)
    return any(
        word == other
        or (
            familiar
            and given_names.same_given(word, other, initials=False)
            and not given_names.anothers_pet_form(word, other, carried)
        )
        for other in carried
    )

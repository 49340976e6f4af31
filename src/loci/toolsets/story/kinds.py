"""What a name names: a person, a place, a household, something else, or no name at all.

Each name the story met carries the cues of all its mentions (`Votes`); the whole story says
how it writes each word (`WordCase`). A reader's rules, in order:

- a common word is no name: one the story writes in lower case far more often than it
  capitalises inside a sentence ("Time"), or never capitalises inside one ("Hush!"), unless
  its mentions say otherwise (it speaks, is where things happen, "in Nice", or carries a
  title that does not personify it: "Dame Nature"); a firm names no one ("Messrs. Maw");
- a day is no one ("St. Tatiana's Day"), nor a month no one answers to ("26 July"); a
  saint's name is a place or a feast ("St. Petersburgh"), unless it speaks, a title stands
  before it ("Mr. St. John") or it ends in a family name of the story's people ("St. John
  Rivers", beside "Mr. Rivers");
- a plural of a family's name, mostly after "the", is a household ("the Marches"), and so are
  sisters by "Misses" or "Miss" ("two Miss Thorpes"); any other plural mostly after "the" is
  a place or a people, no one character ("the Warrens");
- otherwise the cues vote: NER's label (a few votes, however often it repeats), speaking,
  being called by name in dialogue, acting, a pronoun taking the name up and a title for a
  person; a preposition of place for a place; an article for a thing, a place or not as NER
  has it ("the Pequod", "the Pacific"). A person must show as one: speak, be called, act or be
  taken up by "he" or "she" in a tenth of its mentions, or be called a person by NER again and
  again; a place must be somewhere things happen. A name that speaks again and again is
  someone's, whatever its article and NER say ("said the Scarecrow"), and so is one called
  out that acts and that "he" or "she" takes up ("the Aged"), a name the text gives as
  someone's ("he's called Nut") unless it is somewhere things happen or mostly after "the",
  and a bare name that speaks, if it acts in half its mentions or NER never places it ("said
  Ysolde", "Ysolde sat"; "added Torrance"); a name mostly after "the" and often after a word
  of place is somewhere ("in the Hollow"), but not a given name NER and a cue make someone's
  ("from Sarah"). A name whose cues are too few to say is `unknown`, but a Russian pet form,
  never where places are, in a story naming people by patronymics.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Literal

from loci.toolsets.story import (
    census,
    common_words,
    family_names,
    given_names,
    kin_words,
    names,
    namespans,
    place_names,
    titles,
)
from loci.toolsets.story.address import ANYONES, DAYS, OATHS
from loci.toolsets.story.calendar_names import is_a_day_by_name, is_a_month_alone
from loci.toolsets.story.common_words import a_cry, is_common_word, name_words, word_key
from loci.toolsets.story.place_names import estate_word, is_a_place_by_name, saints_namesake
from loci.toolsets.story.reading import WordCase

Kind = Literal["character", "place", "household", "other", "unknown"]
KINDS: tuple[Kind, ...] = ("character", "place", "household", "other", "unknown")
#: Share of a name's mentions its winning kind must score (one NER label among many is too little).
DECISIVE_SHARE = 0.5
#: The votes NER's labels of one name count as, at most.
NER_VOTES = 8
#: Pronouns that must take a name up, and the share that must agree, to say its sex.
SEX_VOTES = 3
SEX_SHARE = 0.7
#: Share of a person's mentions that show them speaking, acting or taken up by a pronoun.
CUE_SHARE = 0.1
#: Share of a bare name's mentions that show it speaking or acting for it to be a person's.
PERSON_SHARE = 0.5
#: Share of a name's mentions after a word of place ("in the Hollow") that makes a name written
#: after "the" somewhere, and the fewest mentions that tell it.
PLACED_SHARE = 0.3
PLACED_LEAST = 3
#: A name said to speak this many times, in a tenth of its mentions, is someone's ("said the Heron").
SPEAKS_LEAST = 2
#: Share of a titled name's mentions after "the" that make it a thing's ("the Admiral Benbow", an inn).
TITLED_THING = 0.5
#: How often NER alone must call a name a person, with no other cue, for it to be one.
NER_ALONE = 4
#: A word in the possessive opening a name ("King's Arms") or inside it ("Harker's Journal").
POSSESSIVE_FIRST = re.compile(r"^\w+['\u2019]s\s")
POSSESSIVE_INSIDE = re.compile(r"\w['\u2019]s\s+\S")
#: Share of a plural's mentions written after "the" for it to name no one character.
PLURAL_ARTICLE_SHARE = 0.5

#: The columns of a name's row that hold its `Votes`, in their order.
VOTE_COLUMNS = (
    "mentions, ner_person, ner_place, ner_other, said, acts, place_word, article, male, female, "
    "addressed, named"
)


@dataclass(frozen=True)
class Votes:
    """The cues of a name's mentions, counted."""

    mentions: int = 0
    ner_person: int = 0
    ner_place: int = 0
    ner_other: int = 0
    said: int = 0
    acts: int = 0
    place_word: int = 0
    article: int = 0
    male: int = 0
    female: int = 0
    addressed: int = 0
    named: int = 0

    def __add__(self, other: Votes) -> Votes:
        return Votes(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def cues(self) -> int:
        """The mentions a reader sees a person in: speaking, acting, called out, taken up by
        "he" or "she", or named so."""
        return self.said + self.acts + self.addressed + self.male + self.female + self.named

    def scores(self, titled: bool) -> tuple[float, float, float]:
        """(person, place, other) scores of these mentions. NER labels one word alike
        wherever it stands, so its labels count as at most NER_VOTES votes, shared as it
        shared them; each cue a reader sees counts on its own."""
        labelled = self.ner_person + self.ner_place + self.ner_other
        weight = min(labelled, NER_VOTES) / labelled if labelled else 0.0
        # "He" and "she" count as far as they agree: pronouns that take a word up now as a
        # man, now as a woman, belong to whoever is near it ("a Yorkshire accent").
        person = (
            weight * self.ner_person
            + 3 * (self.said + self.addressed + self.named)
            + self.acts
            + 3 * abs(self.male - self.female)
            + (2 * self.mentions if titled else 0)
        )
        # "The" says a thing, not a person: a place ("the Pacific") or something else ("the
        # Pequod"), as NER tells the two apart.
        things = self.ner_place + self.ner_other
        placed = self.ner_place / things if things else 0.5
        place = weight * self.ner_place + 2 * self.place_word + 2 * self.article * placed
        other = weight * self.ner_other + 2 * self.article * (1 - placed)
        return person, place, other

    def kind(self, titled: bool) -> Kind:
        """The kind these mentions vote for (`unknown` when no kind scores enough). A person
        needs more than NER's word for it: a cue a reader sees (speaking, acting, a pronoun,
        a title), unless NER says so again and again."""
        if self.said >= SPEAKS_LEAST and self.said >= CUE_SHARE * self.mentions:
            return "character"  # '"Come along," said the Scarecrow': whatever "the" says
        if self.named and not self.place_word and 2 * self.article < self.mentions:
            return "character"  # "he's called Nut": the text's word, whatever NER's label
        if self._speaks_and_acts():
            return "character"  # 'said Ysolde', "Ysolde sat": whatever NER's label
        if not titled and self._somewhere():
            return "place"  # "in the Hollow", "at Morton": whatever NER's label
        person, place, other = self.scores(titled)
        best = max(person, place, other)
        if best < DECISIVE_SHARE * min(max(1, self.mentions), NER_VOTES):
            return "unknown"
        if person > max(place, other):
            return "character" if titled or self._acts_as_a_person() else "unknown"
        if place >= other:
            # A place is somewhere things happen: "in Meryton", "to London".
            return "place" if self.place_word else "unknown"
        return "other"

    def _speaks_and_acts(self) -> bool:
        """Whether a bare name (never after "the", never where a place is) speaks, and acts
        too in half its mentions or is never NER's place: a reader sees a person there,
        whatever NER says ("Ysolde", NER's place five times out of five; "added Torrance")."""
        bare = not self.place_word and not self.article
        acts = self.said + self.acts >= PERSON_SHARE * self.mentions
        return bare and self.said > 0 and (acts or not self.ner_place)

    def _somewhere(self) -> bool:
        """Whether a name stands after a word of place ("in", "across", "into", "went to")
        in PLACED_SHARE of its mentions and never speaks, is called out or named so:
        somewhere ("the Hollow", "the Haunted Wood", where NER calls an invented word a
        thing's; "at Morton", "to Whitcross", villages NER takes for men's names). A
        person's name seldom stands so ("went to Elizabeth") and then speaks somewhere, or
        acts as often and "he" or "she" takes it up ("from Wilson", "Wilson brought me word")."""
        person = self.said + self.addressed + self.named
        someone = self.male + self.female > 0 and self.acts >= self.place_word
        placed = self.place_word >= PLACED_SHARE * self.mentions
        return self.mentions >= PLACED_LEAST and not person and not someone and placed

    def _acts_as_a_person(self) -> bool:
        """Whether the mentions show someone: speaking, acting or taken up by "he" or "she"
        often enough (a tenth of them; God, named eighty times, acts in two), or NER takes
        the name for a person's in most of them, with a cue or again and again."""
        if self.cues >= CUE_SHARE * self.mentions:
            return True
        named_a_person = 2 * self.ner_person >= self.mentions
        again = self.ner_person >= min(NER_ALONE, self.mentions)
        return named_a_person and (self.cues > 0 or again)

    def sex(self) -> str | None:
        """The sex the pronouns taking the name up say, when they say it clearly."""
        total = self.male + self.female
        if total < SEX_VOTES:
            return None
        if self.male >= SEX_SHARE * total:
            return "m"
        return "f" if self.female >= SEX_SHARE * total else None


def is_no_name(written: str, votes: Votes, cases: Mapping[str, WordCase]) -> bool:
    """Whether `written` is a common word (or words) and its mentions do not make it a name,
    or a stop word alone, whatever its mentions say (a line of dialogue closed before "There
    was ..." reads as spoken by "There"), or a word a speaker calls anyone by ("Mac") that
    never speaks or acts, or a day or a word sworn by ("God") that does not speak again and
    again."""
    if namespans.a_stop_word(written):
        return True
    if written.lower() in ANYONES and not (votes.said or votes.acts):
        return True  # "Listen, Mac": what a speaker calls anyone
    if a_cry(written):
        return True
    if written.lower() in DAYS | OATHS and votes.said < SPEAKS_LEAST:
        return True  # "Sunday", taken up by "he" once; "God knows": Crusoe's Friday speaks
    parsed = names.parse(written)
    if parsed.honorific and name_words(written) != written.split():
        return common_words.personified(written, cases)  # "Mr. Flask", no "King Laugh"
    words = name_words(written)
    if not all(is_common_word(w, cases) for w in words):
        return False
    # "Having stifled my sobs, ... I resumed": capitalised only where a sentence opens, no one
    # ("the King", "Mrs. Darling" capitalise theirs inside sentences).
    participle = len(words) == 1 and words[0].lower().endswith("ing")
    if participle and cases.get(word_key(words[0]), WordCase()).inside == 0:
        return True
    # A phrase of common words speaking once is a by-name ('returned Black Dog').
    speaks = votes.said >= 2 or (votes.said > 0 and len(words) > 1)
    located = votes.ner_place + votes.place_word >= DECISIVE_SHARE * max(1, votes.mentions)
    # A word the text gives as someone's name is one: "he's called Nut".
    return not (speaks or located or votes.named)


def is_plural(written: str, votes: Votes) -> bool:
    """Whether `written` is one word in the plural, mostly after "the" ("the Warrens", a
    farm; "the Munchkins", a people): no one character ("the Duchess", "the Marquis" and
    "the Walrus" are not plurals)."""
    word = written.lower()
    plural = word.endswith("s") and not word.endswith(("ss", "is", "us")) and " " not in word
    return plural and votes.article >= PLURAL_ARTICLE_SHARE * votes.mentions


def surface_kind(
    written: str, votes: Votes, cases: Mapping[str, WordCase], family: Collection[str]
) -> Kind:
    """What a name, with the cues of its mentions, names."""
    parsed = names.parse(written)
    if is_no_name(written, votes, cases) or parsed.titles & titles.PLURAL_TITLES:
        return "other"  # a common word, or a firm ("Messrs. Maw")
    if is_a_day_by_name(written):
        return "other"
    if is_a_place_by_name(written) and not (
        parsed.saint and (votes.said >= SPEAKS_LEAST or saints_namesake(written, family))
    ):
        return "place"
    if family_names.is_household(written, votes.article, votes.mentions, family):
        return "household"
    if is_plural(written, votes):
        return "place" if votes.place_word else "other"
    # A title before a name written after "the" is an inn's or a ship's ("at the Admiral
    # Benbow"): no one calls a person "the Mr. Darcy", but "the Duke of Wellington" is one.
    # A title in the possessive names a thing for its bearer: "the Widow's Lantern" (a ship),
    # "the King's Arms" (an inn). A village's title takes "the" before a person, and a style's
    # "the" is its own ("the Dowager Viscountess Dalrymple"), no thing's.
    if parsed.titles & titles.STYLES_AFTER_THE:
        votes = replace(votes, article=0)
    by_name = not POSSESSIVE_FIRST.match(written) and (
        votes.article < TITLED_THING * votes.mentions
        or " of " in written
        or bool(parsed.titles & titles.VILLAGE_TITLES)
    )
    # An office with its domain is someone's: "the Warden of the Fens", "the Bishop of London".
    office = " of " in written and names.is_title(written.split()[0])
    if votes.addressed and kin_words.parent_word_sex(written):
        return "character"  # '"Goodnight, Nana"': a child's word for a grandparent, called out
    kind = votes.kind(titled=(parsed.honorific and by_name) or office)
    if kind == "character" and _a_things_name(written, votes):
        return "other"
    if kind != "place" and _someones_epithet(written, votes):
        return "character"
    return kind


def _someones_epithet(written: str, votes: Votes) -> bool:
    """Whether `written` is one word for a man or a woman of a people or a place ("the
    Dutchman", "the Welshman", "the Lakeman"), mostly after "the", that speaks and acts (NER
    takes it for a nationality; a "Talisman" never speaks), or a name called out that acts and
    is taken up as a man or a woman: someone's, whatever "the" says ("the Aged", Wemmick's
    father: "Well, Aged P.!")."""
    word = written.lower()
    people = word.endswith("man") and " " not in word  # "-woman" too
    if people and 2 * votes.article >= votes.mentions and votes.said > 0 and votes.acts > 0:
        return True
    return bool(votes.addressed and votes.acts and votes.sex())


def _a_things_name(written: str, votes: Votes) -> bool:
    """Whether `written`, mostly written after "the" and never speaking, holds no title, no
    given name and no "of": a thing's name ("the Dabchick", a punt), not a person's ("the
    Scarecrow" speaks; "the Monkey King" is a king; "the Ghost of Christmas Past")."""
    words = written.split()
    if votes.said >= SPEAKS_LEAST or 2 * votes.article <= votes.mentions or "of" in words:
        return False
    return not any(names.is_title(w) or census.is_given_name(w) for w in words)


def story_kinds(named: Sequence[tuple[str, Votes]], cases: Mapping[str, WordCase]) -> list[Kind]:
    """What each of a story's names (written, with its votes) names, as `surface_kind` says;
    but a single word whose cues are too few to say, written as the family name of a titled
    character and never after "the", is a person's ("Fezziwig", beside "Mrs. Fezziwig");
    and so is a name made with "of" on the word a speaking character goes by, unless it is
    somewhere things happen ("the Wicked Witch of the West", beside the "Witch" who
    speaks)."""
    speakers = {
        word_key(written)
        for written, votes in named
        if " " not in written and votes.said >= SPEAKS_LEAST and votes.kind(False) == "character"
    }
    family: set[str] = set()
    titled: set[str] = set()  # family names of characters with a title or a given name
    for written, votes in named:
        name = names.parse(written)
        # A firm is no family: "Messrs. Tellson" makes no one of "Tellson", its bank; nor a
        # thing of someone's: "Jonathan Harker's Journal" makes no one of "Journal".
        firm = name.titles & titles.PLURAL_TITLES or POSSESSIVE_INSIDE.search(written)
        if votes.kind(name.honorific) == "character" and not firm:
            # A domain is no family's name: "the Monkeys" are no household of the Monkey King.
            family |= set() if name.domain else name.surnames | name.bare
            titled |= name.surnames | (name.bare if name.surname_like else set())
    found: list[Kind] = [
        "other"  # "July", of a diary's "26 July"; not "March" of Jo March
        if is_a_month_alone(w, v.said >= SPEAKS_LEAST, bool(v.addressed), titled)
        else surface_kind(w, v, cases, family)
        for w, v in named
    ]
    no_ones = {
        word_key(w) for (w, _), kind in zip(named, found, strict=True) if kind != "character"
    }
    estates = {estate for w, _ in named if (estate := estate_word(w)) is not None}
    written_names = [w for w, _ in named]
    sisters = family_names.sisters(written_names)  # "two Miss Thorpes", beside "Miss Thorpe"
    found = [
        "household" if w in sisters else kind for w, kind in zip(written_names, found, strict=True)
    ]
    full = family_names.full_names(family, written_names)  # "Blanche Ingram", NER's "other"
    given = family_names.given_before(family, written_names, cases)
    full_given = family_names.given(full)
    people = [w for (w, _), kind in zip(named, found, strict=True) if kind == "character"]
    russian = sum(bool(names.parse(w).fathers) for w in people) >= given_names.PATRONYMIC_STORY
    for at, (written, votes) in enumerate(named):
        name = names.parse(written)
        member = bool(name.bare) and name.bare <= titled and not name.titles
        undecided = found[at] == "unknown" and member and votes.article == 0
        built_on_a_speaker = found[at] in ("unknown", "other") and _head(written) in speakers
        if (undecided or built_on_a_speaker) and votes.place_word < 2:
            found[at] = "character"
        elif word_key(written) in estates - titled and votes.place_word and votes.said == 0:
            found[at] = "place"  # "Misselthwaite", of "Misselthwaite Manor", no one's name
        elif found[at] in ("other", "place", "unknown") and (
            (written in full and found[at] != "place" and not votes.article)
            or (word_key(written) in given and votes.said + votes.acts > votes.place_word)
            or (word_key(written) in full_given and found[at] == "other" and not votes.article)
        ):
            found[at] = "character"  # "Priya asked", of "Priya Nair"; "Edmund laughs", NER's place
        elif found[at] == "place" and place_names.someones_given_name(written, votes):
            found[at] = "character"  # "went to Sarah", "from Sarah": NER's woman, and "she"
        elif found[at] == "unknown" and russian and _a_russian_pet_name(written, votes):
            found[at] = "character"  # "Mitia", whom NER takes for a place, never somewhere
        elif found[at] == "character" and _plural_of(written, no_ones) and not votes.cues:
            found[at] = "other"  # "Nantucketers", of "Nantucketer": NER's people, no one
    return found


def _a_russian_pet_name(written: str, votes: Votes) -> bool:
    """Whether `written`, one word, ends as a Russian pet form and is never written after
    "the" or where places are."""
    bare = not votes.article and not votes.place_word
    return " " not in written and bare and given_names.russian_pet(word_key(written))


def _plural_of(written: str, words: Collection[str]) -> bool:
    """Whether `written` is one word, the plural of one of `words`."""
    key = word_key(written)
    return " " not in written and key.endswith("s") and key[:-1] in words


def _head(written: str) -> str:
    """The word a name made with "of" is built on, lower case ("witch" in "Wicked Witch of
    the West"); empty for any other name, or one whose first word is a title."""
    words = written.split()
    if "of" not in words[1:] or names.is_title(words[0]):
        return ""
    return word_key(words[words.index("of") - 1])

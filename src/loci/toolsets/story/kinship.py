"""Family relations a careful reader finds in a story: the bride a married name was given to
at a wedding the story tells, and the parent a child's word for one ("Marmee") names.

A married name alone ("Mrs. Brooke") goes to the woman the story names beside the husband far
more than any other, for how often it names her: the husband is the one man of the family name
(John Brooke; none is guessed when two men bear it), and the bride is no woman of his family,
bears no married title already, and is not met with the married name in sentences as another
woman would be. Proposals refused weigh little beside a courtship and a marriage: Elizabeth is
named with Mr. Collins often, for her share of the story far less than Charlotte. Only a name
the story gives at a marriage it tells counts: one first written well after the husband's and
the bride's names ("Lady Lucas", beside Sir William from the start, is a wife in her own right).
A married name with the husband's given name ("Mrs. John Knightley") says which man of the
family he is, and that she is a wife however early it is written: it goes to the woman named
beside him so, if her own name is written before it.

A child's word for a parent said as a name ("Marmee", "Mamma", "Papa") names the mother
(father) of the family whose children it is said beside; in a story of patronymics, where
"Monsieur Kirsanov" may be any man of the family, the father the child's patronymic names
("Papa", beside Arkady Nikolaievitch: Nikolai Petrovitch).

Nursery words for a mother and a father are built alike in any spelling: "ma" or "mo" and an
m ("Mamma", "Mummy", "Marmee"), "pa" and a p, or "da" and a d ("Papa", "Daddy"). A careful
reader takes "Marmee", said in the paragraphs of Meg, Jo and Beth March, for their mother,
Mrs. March, though the story never writes the two side by side: the children use one name,
the narration the other.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from loci.toolsets.story import kin_words, names
from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.evidence import evidence, merge_suggestion
from loci.toolsets.story.meetings import APART_SENTENCES
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.people import Person

#: A married name goes to the woman named with her husband in this many sentences at least,
#: and in this many times as large a share of her mentions as any other woman.
WIFE_LEAST = 8
WIFE_MARGIN = 2.0
#: A name taken at a marriage the story tells first appears this share of the story after
#: the husband and the bride do ("Mrs. Brooke", after John Brooke and Meg); one there from
#: the start ("Lady Lucas", beside Sir William) is a wife in her own right.
MARRIED_LATER = 0.1
#: How near (story tokens, some pages) a widow's name is last written to where her new
#: married name is first.
RENAMED_REACH = 5_000
#: "a" or "an" just before a name.
SUPPOSING = re.compile(r"\ban?\s+$", re.IGNORECASE)


def bride(
    guest: Entity,
    characters: Sequence[Entity],
    people: Mapping[int, Person],
    company: Company,
) -> tuple[Entity, Entity] | None:
    """The woman (and her husband) a married name alone, `guest`, was given to at a wedding
    the story tells, if a careful reader would say so."""
    mine = people[guest.id]
    if True not in mine.married or mine.given or mine.sex != "f" or not mine.family:
        return None
    later = MARRIED_LATER * max((_last(e) for e in characters), default=0)
    if mine.husbands:
        # "Mrs. John Knightley" says whose wife she is: no wedding need be told, only the
        # wife's own name be written before it (Great Expectations' Biddy, named with Joe
        # far more than anyone, comes after "Mrs. Joe" and marries him at the end).
        later = 0
    husbands = [h for h in characters if _husband(people[h.id], mine)]
    if len(husbands) != 1 or guest.first.position < husbands[0].first.position + later:
        return None
    wife = _wife(guest, husbands[0], characters, people, company)
    if wife is None or wife.first.position + later > guest.first.position:
        return None
    return wife, husbands[0]


def _last(entity: Entity) -> int:
    """Where the entity was last seen in the story."""
    return max(seen.position for seen in [entity.first, *entity.recent])


def _husband(man: Person, wife: Person) -> bool:
    """Whether `man` bears the family name of a married woman's name, and her husband's given
    name if it says one ("Mrs. John Knightley" is John's wife, not his brother's)."""
    if wife.husbands and not man.given & wife.husbands:
        return False
    return man.sex == "m" and bool(man.family & wife.family)


def _wife(
    guest: Entity,
    husband: Entity,
    characters: Sequence[Entity],
    people: Mapping[int, Person],
    company: Company,
) -> Entity | None:
    """The woman the story names with `husband` in a far larger share of her mentions than
    any other woman, or in the largest and in far more sentences (Nancy, named with Godfrey
    in 37, her sister in 8), and never with the married name `guest` as with another person."""
    mine = people[guest.id]
    met = {
        w.id: company.met_in_sentences(w.id, husband.id)
        for w in characters
        if w.id != guest.id
        and people[w.id].sex == "f"
        and (True not in people[w.id].married or _renamed(w, guest))
        and not people[w.id].family & mine.family
    }
    share = {w.id: met[w.id] / w.mentions for w in characters if met.get(w.id, 0) >= WIFE_LEAST}
    ranked = sorted(share, key=lambda i: -share[i])
    if not ranked:
        return None
    first, *rivals = ranked
    by_share = not rivals or share[first] >= WIFE_MARGIN * share[rivals[0]]
    if not by_share and met[first] < WIFE_MARGIN * max(met[i] for i in rivals):
        return None
    # A bride and her married name are seldom named side by side ("Meg" and "Mrs. Brooke",
    # never): Harriet, named with "Mrs. Elton" in four sentences, is not she.
    apart = company.met_in_sentences(guest.id, first) >= APART_SENTENCES
    return None if apart else next(w for w in characters if w.id == first)


def supposed(aliases: Sequence[str], text: str) -> bool:
    """Whether `text` writes each of `aliases` only after "a" or "an": a name anyone might bear
    ("a Mrs. Lorry"), no one's."""
    written = [re.finditer(rf"(?<![\w.]){re.escape(a)}(?!\w)", text) for a in aliases]
    befores = [text[max(0, m.start() - 4) : m.start()] for found in written for m in found]
    return bool(befores) and all(SUPPOSING.search(before) for before in befores)


#: The titles a mother (father) is named by with her (his) family name.
PARENT_TITLES = {
    "f": frozenset({"mrs", "madame", "mme", "frau", "signora"}),
    "m": frozenset({"mr", "monsieur", "m", "herr", "signor"}),
}
#: The family a word for a parent is said beside must be named in its paragraphs this many
#: times at least, and this many times as often as any other family.
FAMILY_LEAST = 5
FAMILY_MARGIN = 2.0


@dataclass(frozen=True)
class Parent:
    """The parent a child's word names, and the family it was said beside (how often)."""

    parent: Entity
    family: str
    beside: int
    #: The child whose patronymic names the father ("Arkady"), when no title does.
    child: str = ""

    def reason(self, guest: Entity, sex: str | None) -> str:
        """Why `guest`, a child's word for a parent, is this parent's, in words."""
        if kin_words.is_grandparent_word(guest.name):
            elder, calling = "grandparent", "woman" if sex == "f" else "man"
        else:
            elder, calling = "parent", "mother" if sex == "f" else "father"
        return (
            f"{guest.name!r} is a child's word for a {elder}, said beside the "
            f"{self.family.title()} family ({self.beside} times in its paragraphs), and "
            + (
                f"{self.parent.name!r} is the father {self.child}'s patronymic names"
                if self.child
                else f"{self.parent.name!r} is that family's one {calling} by name"
            )
        )


def parent_named(
    guest: Entity,
    characters: Sequence[Entity],
    people: Mapping[int, Person],
    company: Company,
) -> Parent | None:
    """The one mother (father) of the family whose members `guest`, a child's word for a
    parent, is said beside in paragraphs far more often than any other family's."""
    sex = kin_words.parent_word_sex(guest.name)
    if sex is None:
        return None
    # A parent of a family is titled by its name ("Mrs. March"); a daughter of it who married
    # is titled by her husband's ("Jo March", "Mrs. Bhaer": a mother of the Bhaers).
    titled = {c.id: _titled_families(c, sex) for c in characters if c.id != guest.id}
    parents = [c for c in characters if titled.get(c.id) and people[c.id].sex == sex]
    # The children of a family are named by it without a parent's title: "Mrs. Moss", the
    # housekeeper, is no child of the Mosses said beside "Grandfather".
    elders = {c.id: _titled_families(c, "f") | _titled_families(c, "m") for c in characters}
    families: Counter[str] = Counter()
    for other, count in company.paragraph.get(guest.id, Counter()).items():
        if other in people:
            for word in people[other].surnames | people[other].surnamish:
                if word not in elders.get(other, ()):
                    families[word] += count
    ranked = families.most_common(2)
    if not ranked or ranked[0][1] < FAMILY_LEAST:
        return None
    if len(ranked) > 1 and ranked[0][1] < FAMILY_MARGIN * ranked[1][1]:
        return None
    family, beside = ranked[0]
    theirs = [p for p in parents if family in titled[p.id]]
    if len(theirs) != 1 or _one_of_the_sons(theirs[0], family, characters, people):
        if sex != "m":
            return None
        named = _named_by_patronymic(guest, family, characters, people, company)
        return None if named is None else Parent(named[0], family, beside, named[1].name)
    return Parent(theirs[0], family, beside)


def _named_by_patronymic(
    guest: Entity,
    family: str,
    characters: Sequence[Entity],
    people: Mapping[int, Person],
    company: Company,
) -> tuple[Entity, Entity] | None:
    """The man of `family` the patronymic of the child `guest` is said beside most names
    ("Papa", beside Arkady Nikolaievitch: Nikolai Petrovitch), if one man of it bears it, and
    that child."""
    beside = company.paragraph.get(guest.id, Counter())
    children = [c for c in characters if family in people[c.id].surnames and people[c.id].fathers]
    child = max(children, key=lambda c: beside[c.id], default=None)
    if child is None or not beside[child.id]:
        return None
    stems = people[child.id].fathers
    fathers = [
        c
        for c in characters
        if c.id != child.id
        and people[c.id].sex != "f"
        and family in people[c.id].surnames
        and any(given.startswith(stem) for given in people[c.id].given for stem in stems)
    ]
    return (fathers[0], child) if len(fathers) == 1 else None


def _one_of_the_sons(
    father: Entity, family: str, characters: Sequence[Entity], people: Mapping[int, Person]
) -> bool:
    """Whether `father`, titled by the family name alone ("Monsieur Kirsanov"), may be any of
    the family's men the story names by given name (Nikolai, Paul and Arkady Kirsanov): "Mr."
    tells no father from his sons, as "Mrs." tells a wife from her daughters."""
    mine = people[father.id]
    if mine.sex != "m" or mine.given:
        return False
    return any(
        c.id != father.id and people[c.id].sex != "f" and family in people[c.id].surnames
        for c in characters
        if people[c.id].given
    )


def _titled_families(entity: Entity, sex: str) -> set[str]:
    """The family names `entity` carries after a parent's title ("march" of "Mrs. March")."""
    found: set[str] = set()
    for alias in entity.aliases:
        name = names.parse(alias)
        if name.titles & PARENT_TITLES[sex]:
            found |= name.surnames | name.bare
    return found


def _renamed(wife: Entity, married: Entity) -> bool:
    """Whether the story stops writing a married woman's name where it starts writing the
    married name `married`, which it goes on writing after: a widow who marries again ("Mrs.
    Corney", last written 4,000 tokens after "Mrs. Bumble" first is, 70,000 before its last)."""
    near = abs(_last(wife) - married.first.position) <= RENAMED_REACH
    return near and _last(married) > _last(wife)


def wife_suggestions(
    characters: Sequence[Entity], people: Mapping[int, Person], company: Company, text: str = ""
) -> list[CastSuggestion]:
    """A married name alone ("Mrs. Brooke") merged into the woman the story gave it to at a
    wedding it tells (`bride`; `people`: each character's names as one person), unless `text`
    writes it only as a wife who might be ("there never might have been a Mrs. Lorry")."""
    suggested = []
    for guest in characters:
        found = bride(guest, characters, people, company)
        if found is not None and not supposed(guest.aliases, text):
            wife, husband = found
            together = company.met_in_sentences(wife.id, husband.id)
            reason = (
                f"{guest.name!r} is the wife of {husband.name!r} by name, and {wife.name!r} is "
                f"the woman named with him in {together} sentences, the most of any for her "
                "share of the story"
            )
            if _renamed(wife, guest):
                reason += f"; the story stops writing {wife.name!r} where {guest.name!r} begins"
            said = evidence(guest, wife) or evidence(wife, husband)
            suggested.append(merge_suggestion(guest, wife, reason, said))
    return suggested

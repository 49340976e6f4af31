"""Who is who: the names a story met, gathered into people as a careful reader would.

Resolution is a pure function of what the story has read (each name's mentions and cues, how
it writes each word, which names met in one sentence), so any process computes the same cast;
the writer's corrections are applied over it (`loci.toolsets.story.corrections`).

People are built from the most telling names: full names first ("Mr. Dan Cody" and "Dan
Cody"), then single words ("Jo", which bring the pronouns that say a full name's sex), then
titled names ("Mr. Darcy" to Fitzwilliam Darcy). A name joins a person only on evidence:

- it restates another in apposition ("Teddy, or Mr. Theodore Laurence");
- its words are that person's: the same surname, the same given name, its nickname (Meg and
  Margaret), its initial, a pet form ("Laurie" for Laurence);
- nothing conflicts: two surnames, two given names, a man's and a woman's title or pronouns,
  a title of rank and a plain one, two ranks of arms, "Mrs." and "Miss" of one family, or
  the two names meeting in sentences of the narration (two people, not one;
  `loci.toolsets.story.meetings`);
- everyone who carries the name and could be it is one person ("Mrs. Bennet" fits neither
  Jane nor Elizabeth Bennet, since both could be her). A single word goes to the one who
  carries it far more often than anyone else ("Hannah" to the Hannah of every chapter, not
  the Hannah named once), else it stays apart: a reader would not guess either.

Then a woman's maiden and married full names, written before and after her wedding, are
joined (`loci.toolsets.story.marriage`), and the names that fitted both look again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from loci.toolsets.story import (
    carriers_groups,
    common_words,
    given_names,
    kinds,
    names,
    titles,
    told_apart,
)
from loci.toolsets.story.epithet_cast import calling_hosts, epithet_hosts, epithet_title, is_calling
from loci.toolsets.story.kinds import Kind, Votes
from loci.toolsets.story.marriage import Written, maiden_and_married, wife_apart
from loci.toolsets.story.meetings import Evidence, Together
from loci.toolsets.story.name_readings import (
    give_name_sexes,
    given_alone,
    lone_families,
    read_aunts_by_given_name,
    read_described,
    read_given_after_mr,
    read_russian_pet_forms,
    sisters,
    wed_by_titles,
)
from loci.toolsets.story.people import Person, shares_a_name, titles_differ
from loci.toolsets.story.place_names import is_a_place_by_name
from loci.toolsets.story.preference import preferred
from loci.toolsets.story.reading import WordCase

PASSES = 4
#: A name not known to be a person's takes others in only when met this often (one stray
#: mention, "Camp Laurence", would make every Laurie ambiguous).
UNSURE_HOST_LEAST = 3
#: The order names look for their person: full names, single words, titled names.
LEVELS = (2, 0, 1)
#: The detail of a full name (`loci.toolsets.story.names.Name.detail`).
FULL_NAME = 2


@dataclass(frozen=True)
class Surface:
    """A name as the story wrote it, with the cues of its mentions."""

    id: int
    written: str
    votes: Votes
    #: Where the story first writes it, and where it last did (its latest few mentions).
    first: int = 0
    latest: tuple[int, ...] = ()

    @property
    def count(self) -> int:
        """How often the story wrote it."""
        return self.votes.mentions


def gather(
    surfaces: Sequence[Surface],
    cases: Mapping[str, WordCase],
    together: Mapping[tuple[int, int], Together],
    alone: Iterable[int] = (),
    declined: Iterable[frozenset[int]] = (),
) -> tuple[dict[int, int], dict[int, Kind]]:
    """Each surface's person (the id of one of its surfaces) and each surface's kind.
    Surfaces in `alone` (split off by the writer) are never joined to anyone here, nor the
    pairs in `declined` (kept apart by the writer) to each other."""
    alone, declined = set(alone), set(declined)
    kinds_of = _surface_kinds(surfaces, cases)
    people = _candidates(surfaces, cases, kinds_of, alone)
    read_described(people.values())
    read_given_after_mr(people.values())
    read_russian_pet_forms(people.values())
    given_words = {w for p in people.values() for w in p.given} | {
        w for p in people.values() for w in p.bare if given_names.related(w)
    }
    give_name_sexes(people.values(), given_words)
    # A word the story writes only as a surname is no given name, whatever the nickname
    # list knows of it: "Lady Lucas" names no Lucas daughter.
    given_words -= wed_by_titles(people.values())
    read_aunts_by_given_name(people.values(), given_words)
    evidence = Evidence.read(together, given_words, {i: p.words for i, p in people.items()})
    evidence.lone_families = lone_families(people.values())
    evidence.declined = frozenset(declined)
    evidence.given_alone = given_alone(people.values())
    evidence.sisters = sisters([(s.written, s.count) for s in surfaces], people.values())
    evidence.mister_families = told_apart.mister_families(people.values())
    written = {
        s.id: Written(s.first, s.latest, frozenset(people[s.id].surnames))
        for s in surfaces
        if s.id in people
    }
    _join_restated(people, evidence)
    _passes(people, evidence)
    if _join_maiden_and_married(people, written, evidence):
        _passes(people, evidence)
    written_as = [(s.id, s.written) for s in surfaces]
    hosts = epithet_hosts(written_as, list(people.values()), alone, declined)
    hosted = {surface for surface, _ in hosts}
    unhosted = [(i, w) for i, w in written_as if i not in hosted]
    hosts += calling_hosts(unhosted, list(people.values()), together, alone, declined)
    for surface, host in hosts:
        host.members.append(surface)
        kinds_of[surface] = "character"  # the name of the title's (calling's) one carrier
    person_of = {s.id: s.id for s in surfaces}
    votes = {s.id: s.votes for s in surfaces}
    for person in people.values():
        person_of.update(dict.fromkeys(person.members, person.id))
        if person.character:
            kinds_of.update(dict.fromkeys(person.members, _kind(person, kinds_of, votes)))
    return person_of, kinds_of


def _kind(person: Person, kinds_of: Mapping[int, Kind], votes: Mapping[int, Votes]) -> Kind:
    """The kind of a person with a character's name: a character's, unless its names of places
    and things that nothing shows a person by are written more than its character's names,
    none of them titled as a person ("Kirk Essendean", once a person by NER, is no character
    beside "Essendean", eight times a thing's; "Redruth", NER's thing, acts and is "he"; "Mr.
    Maclean" makes a man of "Maclean")."""
    said: Counter[Kind] = Counter()
    for member in person.members:
        if kinds_of[member] == "character" or not votes[member].cues:
            said[kinds_of[member]] += votes[member].mentions
    if said["character"] >= said["place"] + said["other"] or person.titles & titles.HONORIFICS:
        return "character"
    return "place" if said["place"] > said["other"] else "other"


def _candidates(
    surfaces: Sequence[Surface],
    cases: Mapping[str, WordCase],
    kinds_of: Mapping[int, Kind],
    alone: set[int],
) -> dict[int, Person]:
    """The names that may be people's: those the cues make characters, and those whose cues
    are too few to say what they are but whose words are a person's ("Jo March", found again
    by the gazetteer, never labelled by NER; "Eliza", which NER takes for an organisation;
    "Bhaer", which it takes for a place) or, for a name with no cue at all, a nickname of one;
    unless the text sets it somewhere twice or writes it after "the". A firm's name
    ("Messrs. Maw") is no one's."""
    named = {
        s.id: Person.named(
            s.id,
            names.parse(
                common_words.reduced(
                    s.written, s.count, cases, kinds_of[s.id] in ("character", "unknown")
                )
            ),
            s.votes,
        )
        for s in surfaces
        # An epithet ("the doctor", "the beadle") joins its one carrier last (`epithet_cast`).
        if kinds_of[s.id] != "household"
        and s.id not in alone
        and epithet_title(s.written) is None
        and not is_calling(s.written)
    }
    written = {s.id: s.written for s in surfaces}
    for i, person in named.items():
        person.character = kinds_of[i] == "character"
        # "Old Tom" is Tom, but the elder of two Toms: the reduced name forgets it.
        parsed = names.parse(written[i])
        person.generations |= {parsed.generation} if parsed.generation else set()
        person.called |= parsed.middle  # "Alan Breck" may be Alan Breck Stewart
    # A place by its very name is no one's, whatever family name it carries ("Brantwell
    # House" is not Lord Brantwell).
    placed = {s.id for s in surfaces if kinds_of[s.id] == "place" and is_a_place_by_name(s.written)}
    people_words = {w for p in named.values() if p.character for w in p.words}
    related_words = {r for w in people_words for r in given_names.related(w)}
    return {
        i: p
        for i, p in named.items()
        if not p.titles & titles.PLURAL_TITLES  # a firm is no one: "Messrs. Maw"
        and i not in placed
        and (
            p.character
            or (
                (p.words & people_words or (kinds_of[i] == "unknown" and p.words & related_words))
                and p.votes.article == 0
                and p.votes.place_word < 2
            )
        )
    }


def _surface_kinds(surfaces: Sequence[Surface], cases: Mapping[str, WordCase]) -> dict[int, Kind]:
    found = kinds.story_kinds([(s.written, s.votes) for s in surfaces], cases)
    return {s.id: kind for s, kind in zip(surfaces, found, strict=True)}


def _join_restated(people: dict[int, Person], evidence: Evidence) -> None:
    """Names that restate one another are one person, unless their names conflict."""
    owner = {member: p.id for p in people.values() for member in p.members}
    for _, a, b in evidence.restated:
        if a not in owner or b not in owner or owner[a] == owner[b]:
            continue
        first, second = people[owner[a]], people[owner[b]]
        if evidence.names_conflict(first, second):
            continue
        host, guest = (first, second) if _outranks(first, second) else (second, first)
        host.called |= guest.words
        _merge(people, host, [guest], owner)


def _passes(people: dict[int, Person], evidence: Evidence) -> None:
    for _ in range(PASSES):
        if not _pass(people, evidence):
            break


def _join_maiden_and_married(
    people: dict[int, Person], written: Mapping[int, Written], evidence: Evidence
) -> bool:
    """Join each woman's maiden and married names (`loci.toolsets.story.marriage`); returns
    whether any joined. She is a wife from then on: "Mrs. Harker" may be hers, and the "Miss"
    of her maiden name no longer tells her from one."""
    pairs = maiden_and_married(people, written, evidence)
    owner = {member: p.id for p in people.values() for member in p.members}
    for maiden, married in pairs:
        host, guest = (maiden, married) if _outranks(maiden, married) else (married, maiden)
        _merge(people, host, [guest], owner)
        host.married = {True}
    return bool(pairs)


def _pass(people: dict[int, Person], evidence: Evidence) -> bool:
    """One pass: each person joins the one it fits, if any; returns whether any joined."""
    joined = False
    owner = {member: p.id for p in people.values() for member in p.members}
    index = _Index(people.values())
    for level in LEVELS:
        guests = sorted(
            (p for p in people.values() if p.detail == level), key=lambda p: (-p.count, p.id)
        )
        for guest in guests:
            if guest.id not in people:
                continue
            near = sorted({owner[i] for i in index.near(guest)})
            hosts = _hosts(guest, [people[i] for i in near], evidence)
            if hosts:
                top = max(hosts, key=lambda p: (p.detail, p.count, -p.id))
                _merge(people, top, [guest, *(h for h in hosts if h is not top)], owner)
                joined = True
    return joined


class _Index:
    """The people who may share a name with a guest: by word (a wife's husband's given name
    too), by a word's first letters (short and pet forms), by nickname, and by initial."""

    def __init__(self, people: Iterable[Person]) -> None:
        self.found: dict[str, set[int]] = {}
        for person in people:
            for word in person.words | person.husbands:
                stems = (f"{word[:2]}~", f"{word[:3]}~")  # "Evie" of Evelyn: "ev~"
                for entry in (word, _prefix(word), f"^{word[:1]}", *stems):
                    self.found.setdefault(entry, set()).add(person.id)

    def near(self, guest: Person) -> set[int]:
        """Ids of people (as first indexed) who may share a name with `guest`."""
        near: set[int] = set()
        for word in guest.words | guest.husbands:
            initials = (f"^{word}",) if len(word) == 1 else (word[:1],)
            base = given_names.doubled_base(word)  # "ratty": "rat"
            pets = (base, _prefix(base)) if base else ()
            # "Evie" finds Evelyn ("ev~"); a pet form on "y" ("May", "Guy") is a name of its own.
            stem = f"{given_names.short_stem(word)}~" if word.endswith("ie") else ""
            for entry in (word, _prefix(word), *initials, *given_names.related(word), *pets, stem):
                near |= self.found.get(entry, set())
        return near


def _prefix(word: str) -> str:
    return f"{word[: given_names.SHORTEST_SHORT_FORM]}*"


def _hosts(guest: Person, people: Iterable[Person], evidence: Evidence) -> list[Person]:
    """The people `guest` joins: all who carry its name and could be it, if they are one
    person; of several, the one a title of rank, the word's sex or a far greater share of
    the story's mentions singles out."""
    people = list(people)
    carriers_all = [h for h in people if h.id != guest.id and shares_a_name(guest, h)]
    # Who could be it by the story alone: a carrier the writer kept apart from the guest
    # still makes the name ambiguous (declining one is no choosing the other), and the
    # guest joins no group that holds it.
    told = evidence.in_the_text
    carriers = [
        host
        for host in people
        if host.id != guest.id
        and _outranks(host, guest)
        and shares_a_name(guest, host)
        and not told.names_conflict(guest, host, marriage=False)
        and not told.seen_apart(guest, host)
        and not told.daughter_and_wife(guest, host)
        and not told_apart.initial_only(host, guest)
    ]
    # A stray name ("Camp Laurence", met once, never known for a person) makes no one
    # ambiguous; it is a host only when nobody surer carries the name.
    sure = [host for host in carriers if _sure(host)]
    groups = carriers_groups.groups(sure or carriers, evidence, people)
    chosen = preferred(guest, groups) if len(groups) > 1 else groups
    if len(chosen) != 1 or any(evidence.declined_by_writer(guest, h) for h in chosen[0]):
        return []
    # Of the one the name means, a name that may as well be another's is not joined through
    # it unless it is named far more: "Gatz" is James Gatz's, but "Mr. Gatz" may be Henry C.
    # Gatz, his father; "Amy", said 600 times, takes "Miss Amy" whatever Amy Curtis is.
    head, *rest = chosen[0]
    others = [p for group in groups for p in group if all(p is not q for q in chosen[0])]
    kept = [
        head,
        *(p for p in rest if not carriers_groups.torn(guest, p, others, evidence, people)),
    ]
    # "Captain Thornbury" is no "Mr. Thornbury" (his father) but by a full name of them
    # both ("John Silver", the pirates' "Captain Silver" and the squire's "Mr. Silver").
    hosts = [
        host
        for host in kept
        if not wife_apart(guest, host, evidence, people)
        and not evidence.names_conflict(guest, host)
        and not (host.detail < FULL_NAME and titles_differ(guest, host))
    ]
    if guest.generations and any(p.generations - guest.generations for p in carriers_all):
        # "Old Tom" joins "Thomas Hale Sr.", never the "Tommy" who may be the son.
        hosts = [host for host in hosts if host.generations]
    if "junior" in guest.generations:
        # "Young Jerry" is the son of a Jerry: never a name that says no generation.
        hosts = [host for host in hosts if host.generations]
    return hosts


def _sure(person: Person) -> bool:
    """Known for a person, met often, or taken for a person by NER more often than not."""
    votes = person.votes
    return (
        person.character
        or person.count >= UNSURE_HOST_LEAST
        or 2 * votes.ner_person > votes.mentions
    )


def _outranks(host: Person, guest: Person) -> bool:
    """Whether `guest` may join `host`: the host's names say more, or as much and it is
    mentioned more (the earlier met on a tie)."""
    if host.detail != guest.detail:
        return host.detail > guest.detail
    return (host.count, -host.id) > (guest.count, -guest.id)


def _merge(
    people: dict[int, Person], host: Person, guests: Sequence[Person], owner: dict[int, int]
) -> None:
    for guest in guests:
        host.absorb(guest)
        for member in guest.members:
            owner[member] = host.id
        del people[guest.id]

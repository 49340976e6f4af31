"""Suggested corrections of a story's cast: what a careful reader would propose and the
resolver, which joins names only on evidence it is sure of, leaves to the writer.

Each suggestion is one `correct_character` call (its `action`, `name` and `other`), with the
mentions it would set right, why in words, and a sentence of the text as evidence; they are
ranked by the mentions they would set right. The kinds:

- an epithet that is one character's title: "the Captain", written where the story has one
  captain ("Captain Hawkes"), becomes an alias of his (its mentions counted in the whole text
  once accepted); a calling the story says beside one name ("Mr. Bumble, the beadle",
  `loci.toolsets.story.callings`) too; a title no character carries, said alone of someone
  who speaks ("the Marquis"), is a character of its own (`loci.toolsets.story.title_alone`);
- a name that fits several people, given to the one whose company it keeps ("Miss Bennet"
  is Jane's: the company of both is Bingley's, not Darcy's). Company is whom a name meets in
  paragraphs, each meeting weighed by how much more often than chance it happens;
- a woman's full name and another of the same given name and another family name, in the
  same company: her maiden and married names ("Sallie Gardiner", "Sallie Moffat");
- a title and a family name ("Mr. Craven"), given to the one full name the story writes with
  them ("Mr. Archibald Craven", `loci.toolsets.story.titled_names`); "Miss" and a family name,
  to the family's one woman who could have been its Miss (`...family_miss`);
- a married name the story gives at a wedding it tells ("Mrs. Brooke", first written long
  after John Brooke and Meg), given to the woman named beside the husband far more often, for
  her share of the story, than any other; or to the one woman of its family the story
  names, beside a man of it (`loci.toolsets.story.family_wife`), or to her called by her
  place in it ("Aunt Reed", `loci.toolsets.story.womens_titles`);
- a name a novel's letters greet or sign a character by (`loci.toolsets.story.letter_names`),
  or a title and an initial ("Mr. E."), the one character so called (`...abbreviated`);
- a name the cast holds for no one, in the company of one character alone;
- a character's name with a common word said of them before it ("the Great Oz"), which the
  cast holds for no one (`loci.toolsets.story.described`), or with "old" or "young" said
  before it as a habit ("old Pew", `loci.toolsets.story.aged`);
- a name the story says a character is called by ("They called him King-Post"), unless it
  is a character named beside them in a sentence (`loci.toolsets.story.called`);
- a child's word for a parent ("Marmee", "Papa"), for the one mother (father) of the family
  whose children it is said beside (`loci.toolsets.story.kinship`);
- a name that is no person's: a month, a day or a document ("Journal") that does not act."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from loci import fields
from loci.toolsets.story import census, kinds, names, store
from loci.toolsets.story.abbreviated import abbreviated_suggestions
from loci.toolsets.story.aged import aged_suggestions
from loci.toolsets.story.answered import answered_suggestions
from loci.toolsets.story.called import called_suggestions
from loci.toolsets.story.callings import calling_suggestions
from loci.toolsets.story.company import Company
from loci.toolsets.story.described import described_suggestions
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithets import epithet_suggestions
from loci.toolsets.story.evidence import evidence, merge_suggestion
from loci.toolsets.story.family_miss import family_miss_suggestions
from loci.toolsets.story.family_wife import family_wife_suggestions
from loci.toolsets.story.heeded import heeded
from loci.toolsets.story.kept_family import carrier_by_family
from loci.toolsets.story.kinship import parent_named, wife_suggestions
from loci.toolsets.story.letter_names import letter_name_suggestions
from loci.toolsets.story.models import CastSuggestion, CastSuggestions
from loci.toolsets.story.name_readings import (
    eldest_and_younger,
    lone_families,
    sisters_written,
    wed_by_titles,
)
from loci.toolsets.story.named_last import carrier_named_last
from loci.toolsets.story.not_people import not_people_suggestions
from loci.toolsets.story.offered import offered_once, one_entity_each, shown_first
from loci.toolsets.story.people import Person, callings_differ, names_conflict, shares_a_name
from loci.toolsets.story.preference import DOMINANCE
from loci.toolsets.story.title_alone import title_alone_suggestions
from loci.toolsets.story.titled_names import distinguished, titled_name_suggestions
from loci.toolsets.story.wives import stated_wife_suggestions
from loci.toolsets.story.womens_titles import womens_title_suggestions

if TYPE_CHECKING:
    from loci.toolsets.story.service import StoryService

#: The most suggestions given at once.
MAX_SUGGESTIONS = 50


def suggest(service: StoryService, session_id: str, limit: int = 10) -> CastSuggestions:
    """The suggested corrections of the cast of `session_id`, best first (at most `limit`),
    with the writer's corrections so far."""
    session = service.session_name(session_id)
    limit = fields.bounded_int(limit, 1, MAX_SUGGESTIONS, "limit")
    with service.db.snapshot() as conn:
        found = store.session(conn, session)
        entities = service.graph.entities(conn, found.id)
        text = store.rendered(conn, found.id, prompts="omit")
        kept = service.graph.corrections(conn, found.id)
        parted = service.graph.parted(conn, found.id)
        company = Company.read(conn, found.id, entities)
    confirm = found.settings.confirm_after
    characters = [e for e in entities if e.kind == "character" and e.confirmed(confirm)]
    people = people_of(characters, company)
    found_by_kind = [
        *epithet_suggestions(text, characters),
        *calling_suggestions(text, characters),
        *aged_suggestions(text, characters),
        *title_alone_suggestions(text, entities, characters),
        # Who answers to a name outweighs whose company it keeps: "Miss Dashwood", answered
        # by Elinor, keeps Marianne's company as much.
        *answered_suggestions(text, entities, characters),
        # So does the full name a title and a family name are written with: a father and his
        # son keep the same company ("Mr. Gale" is Mr. Thomas Gale, not Edmund).
        *titled_name_suggestions(characters, company, text),
        *same_person_suggestions(characters, company, text),
        # A wife the story names outweighs the woman named most beside the husband.
        *stated_wife_suggestions(text, characters, people, company),
        *wife_suggestions(characters, people, company, text),
        *family_wife_suggestions(entities, characters, people, company, text),
        *family_miss_suggestions(characters, people, company),
        *womens_title_suggestions(characters, people, company),
        *letter_name_suggestions(text, characters),
        *abbreviated_suggestions(entities, characters),
        *not_people_suggestions(characters, company),
        *unplaced_suggestions(entities, characters, company),
        *described_suggestions(entities, characters, company, text),
        *parent_suggestions(entities, characters, company),
        *called_suggestions(
            text,
            entities,
            characters,
            lambda e: people[e.id].sex,
            lambda a, b: company.met_in_sentences(a.id, b.id),
        ),
    ]
    suggested = one_entity_each(heeded(offered_once(found_by_kind), kept, entities, parted))
    suggested.sort(key=lambda s: (-s.mentions, s.name, s.other))
    ranked = [
        shown_first(s, entities, text).model_copy(update={"number": n})
        for n, s in enumerate(suggested[:limit], 1)
    ]
    return CastSuggestions(
        session_id=session, suggestions=ranked, corrections=[c.described() for c in kept]
    )


#: Two names keep the same company at this likeness, one of several people a name fits wins when
#: this much likelier than the next, and a name or person written fewer times keeps too little.
ALIKE = 0.15
CLEARLY_LIKELIER = 2.0
COMPANY_LEAST = 5
#: Two names met in one sentence this share of the smaller's mentions are two people.
APART_SHARE = 0.1


def person_of(entity: Entity, votes: kinds.Votes | None = None) -> Person:
    """The entity's names as one person (what they say together), with the cues of its
    mentions when known (its pronouns say its sex)."""
    person = Person.of_names(entity.id, entity.aliases)
    # A middle name may be another name's surname, as in the cast ("Alan Breck Stewart").
    person.called |= {w for alias in entity.aliases for w in names.parse(alias).middle}
    person.count = entity.mentions
    person.votes = votes or kinds.Votes()
    return person


def same_person_suggestions(
    characters: Sequence[Entity], company: Company, text: str = ""
) -> list[CastSuggestion]:
    """Merges of a character into the one it most likely is: a name several people carry,
    given to the one who keeps its company, else to the one `text` names last before it far
    more often; a maiden name, to the same woman's married one. (A married name alone, "Mrs.
    Brooke", is `kinship.wife_suggestions`'.)"""
    people = people_of(characters, company)
    for entity in characters:
        people[entity.id].distinguished |= distinguished(entity.aliases, text)
    sisters = sisters_written(text, people.values())
    lone = lone_families(people.values())
    suggested: list[CastSuggestion] = []
    for guest in sorted(characters, key=lambda e: e.mentions):
        hosts = [
            h
            for h in characters
            if _outranks(people[h.id], people[guest.id])
            and not eldest_and_younger(people[h.id], people[guest.id], sisters)
        ]
        best = _likeliest(guest, hosts, people, company, text, lone, characters)
        if best is not None:
            host, reason, said = best
            suggested.append(
                CastSuggestion(
                    action="merge",
                    name=host.name,
                    other=guest.name,
                    mentions=guest.mentions,
                    reason=reason,
                    evidence=said or evidence(guest, host),
                )
            )
    return suggested


def people_of(characters: Sequence[Entity], company: Company) -> dict[int, Person]:
    """Each character's names as one person, a lady by a family name alone a wife."""
    people = {e.id: person_of(e, company.votes.get(e.id)) for e in characters}
    wed_by_titles(people.values())  # "Lady Lucas" is no daughter of the Lucases
    return people


def _likeliest(
    guest: Entity,
    hosts: Sequence[Entity],
    people: dict[int, Person],
    company: Company,
    text: str,
    lone: frozenset[str] = frozenset(),
    characters: Sequence[Entity] = (),
) -> tuple[Entity, str, str] | None:
    """The host `guest` most likely is, with the reason in words and any evidence, if one
    stands out: by company, else (of several) by who is named last before it, else by whose
    family of `characters` it is named with. A married name of a family the story gives one
    woman only (`lone`) may be hers ("Mrs. Poole", of Grace Poole, a servant called so)."""
    mine = people[guest.id]
    sharing = [h for h in hosts if shares_a_name(mine, people[h.id], ranked_pets=True)]
    apart = company.named_apart(guest, sharing, APART_SHARE)
    fitting = [
        h
        for h in sharing
        if h not in apart
        and not names_conflict(mine, people[h.id], ())
        and not callings_differ(mine, people[h.id])
        and not _wives_told_apart(mine, people[h.id])
        and not (_born_to_the_name(mine, people[h.id]) and not mine.family & lone)
    ]
    ranked = sorted(fitting, key=lambda h: -company.likeness(guest.id, h.id))
    if len(ranked) > 1 and _a_name_of_its_own(guest, ranked):
        ranked = []
    if len({frozenset(people[h.id].generations) for h in ranked} - {frozenset()}) > 1:
        return None  # a father's and a son's: which "Tommy" is, neither company nor order says
    if ranked:
        top = company.likeness(guest.id, ranked[0].id)
        second = company.likeness(guest.id, ranked[1].id) if len(ranked) > 1 else 0.0
        # A name said far more often than the one its company points to is no form of theirs:
        # "Baskerville" (33 times, the family's and Sir Henry's) is not Rodger Baskerville's.
        outnumbered = guest.mentions > DOMINANCE * ranked[0].mentions
        few = min(guest.mentions, ranked[0].mentions) < COMPANY_LEAST
        # Company closer to one named beside it as another is a family's (Judge Thatcher's).
        kin = company.closest(guest.id, apart)
        if top >= ALIKE and top >= CLEARLY_LIKELIER * max(second, kin) and not (outnumbered or few):
            others = f" (of {len(ranked)} who carry the name)" if len(ranked) > 1 else ""
            return (
                ranked[0],
                (
                    f"{guest.name!r} shares a name with {ranked[0].name!r}{others} and keeps the "
                    f"same company (likeness {top:.2f})"
                ),
                "",
            )
    if len(ranked) > 1:
        by_order = carrier_named_last(text, guest, ranked) if text else None
        found = by_order or carrier_by_family(guest, ranked, characters, people, company)
        if found is not None:
            return found
    return _maiden(guest, hosts, people, company)


def _a_name_of_its_own(guest: Entity, carriers: Sequence[Entity]) -> bool:
    """Whether `guest`, a word that is no given name, is said more often than all who carry
    it together: no form of one of them ("the Witch" of a chapter, beside three witches each
    named by her domain), where a given name is ("Sallie", said far more than Sallie
    Gardiner's full names)."""
    if any(census.is_given_name(word) for word in guest.name.split()):
        return False
    return guest.mentions > sum(c.mentions for c in carriers)


def _acts(person: Person) -> bool:
    """Whether the name speaks, acts or is taken up by "he" or "she" as a person's does (a
    ship, "the Rose-Bud", does not)."""
    cues = person.votes
    return cues.said + cues.acts + cues.male + cues.female >= kinds.CUE_SHARE * person.count


def _a_persons_cue(cues: kinds.Votes) -> bool:
    """Whether a name ever speaks, acts, is called out or taken up by "he" or "she"."""
    return cues.said + cues.acts + cues.addressed + cues.male + cues.female > 0


def _outranks(host: Person, guest: Person) -> bool:
    """Whether `guest` may be merged into `host`: the host's names say more (a full name
    over a titled one over a single word), or as much and it is mentioned more."""
    if host.detail != guest.detail:
        return host.detail > guest.detail
    return (host.count, -host.id) > (guest.count, -guest.id)


def _wives_told_apart(a: Person, b: Person) -> bool:
    """Whether both are married women and one is named by her husband's given name too, as
    the story tells a son's wife from his mother ("Mrs Charles Musgrove", "Mrs Musgrove")."""
    return True in a.married and True in b.married and bool(a.husbands) != bool(b.husbands)


def _born_to_the_name(a: Person, b: Person) -> bool:
    """Whether one is a married woman of a family name the other was born to ("Mrs. Bennet"
    and Jane Bennet, her daughter): a wife bears her husband's name."""
    shared = a.family & b.family
    return bool(shared) and (True in a.married) != (True in b.married)


def _maiden(
    guest: Entity, hosts: Sequence[Entity], people: dict[int, Person], company: Company
) -> tuple[Entity, str, str] | None:
    """For a woman's full name, another of the same given name (written alike: "Josie" is not
    "Josephine" here) and another family name that keeps the same company, the one written
    before the other is first (once after it at most): her maiden and married names
    ("Sallie Gardiner", "Sallie Moffat")."""
    mine = people[guest.id]
    if mine.sex == "m" or not mine.given or not mine.surnames or not _acts(mine):
        return None
    fitting = [
        h
        for h in hosts
        if people[h.id].sex != "m"
        and people[h.id].surnames
        and not people[h.id].surnames & mine.surnames
        and mine.given & people[h.id].given
        and not company.met_in_sentences(guest.id, h.id)
        and _one_before_the_other(guest, h)
    ]
    best = max(fitting, key=lambda h: company.likeness(guest.id, h.id), default=None)
    if best is None or company.likeness(guest.id, best.id) < ALIKE:
        return None
    return (
        best,
        (
            f"{guest.name!r} and {best.name!r} may be one woman's maiden and married names: the "
            f"same given name, the same company (likeness {company.likeness(guest.id, best.id):.2f})"
        ),
        "",
    )


def _one_before_the_other(a: Entity, b: Entity) -> bool:
    """Whether one of two entities is written before the other first is, once after at most."""
    first, then = (a, b) if a.first.position <= b.first.position else (b, a)
    later = [seen for seen in first.recent if seen.position > then.first.position]
    return len(later) <= 1


#: A name the cast holds for no character joins one whose company it keeps this closely, and
#: this much more closely than anyone else's.
UNPLACED_ALIKE = 0.3
UNPLACED_MARGIN = 3.0
UNPLACED_LEAST = 5


def unplaced_suggestions(
    entities: Sequence[Entity], characters: Sequence[Entity], company: Company
) -> list[CastSuggestion]:
    """A given name the cast holds for no one (neither character nor place: a pet name NER
    took for something else, "Fritz") merged into the one character whose company it keeps,
    and never meets in a sentence, if it ever speaks, acts or is taken up as a person is."""
    suggested = []
    for guest in entities:
        if guest.kind not in ("unknown", "other") or guest.mentions < UNPLACED_LEAST:
            continue
        if not any(census.is_given_name(w) for a in guest.aliases for w in a.split()):
            continue  # an interjection, a nationality or a ship keeps company too
        if not _a_persons_cue(company.votes.get(guest.id, kinds.Votes())):
            continue  # a lipstick's colour ("Black Cherry") keeps its wearer's company
        # Company says little of a name met a few times, or of a character met less than it.
        hosts = [c for c in characters if c.mentions >= guest.mentions]
        ranked = sorted(hosts, key=lambda c: -company.likeness(guest.id, c.id))
        if not ranked or company.met_in_sentences(guest.id, ranked[0].id):
            continue
        top = company.likeness(guest.id, ranked[0].id)
        second = company.likeness(guest.id, ranked[1].id) if len(ranked) > 1 else 0.0
        if top >= UNPLACED_ALIKE and top >= UNPLACED_MARGIN * second:
            reason = (
                f"{guest.name!r} is no one's name yet, and it keeps the company of "
                f"{ranked[0].name!r} alone (likeness {top:.2f})"
            )
            suggested.append(merge_suggestion(guest, ranked[0], reason))
    return suggested


def parent_suggestions(
    entities: Sequence[Entity], characters: Sequence[Entity], company: Company
) -> list[CastSuggestion]:
    """A child's word for a parent said as a name ("Marmee"), merged into the one mother
    (father) of the family it is said beside ("Mrs. March", beside Meg, Jo and Beth March)."""
    people = people_of(characters, company)
    suggested = []
    for guest in entities:
        if guest.kind == "place" or guest.mentions < UNPLACED_LEAST:
            continue
        found = parent_named(guest, characters, people, company)
        if found is not None:
            reason = found.reason(guest, people[found.parent.id].sex)
            suggested.append(merge_suggestion(guest, found.parent, reason, evidence(guest)))
    return suggested

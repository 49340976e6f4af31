"""Suggested corrections of a story's cast: what a careful reader would propose and the
resolver, which joins names only on evidence it is sure of, leaves to the writer.

Each suggestion is one `correct_character` call (its `action`, `name` and `other`), with the
mentions it would set right, why in words, and a sentence of the text as evidence; they are
ranked by the mentions they would set right. Four kinds:

- an epithet that keeps company with one character: "the Captain", written where the story
  has one captain ("Captain Hawkes"), becomes an alias of his (its mentions counted in the
  whole text once accepted);
- a name that fits several people and that one of them carries far more often in the same
  company ("Miss Bennet", among Jane's and Elizabeth's names);
- a married or maiden name ("Mrs. Brooke" for Meg, who is seen beside John Brooke; "Mina
  Murray" and "Mina Harker");
- a name that is likely no person's: a month, a day, a document ("Journal"), or a name the
  text sets somewhere ("in Whitby") more often than it has it speak or act.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from loci import fields
from loci.storage.db import Connection
from loci.story import kinds, names, store
from loci.story.entity import Entity
from loci.story.models import CastSuggestion, CastSuggestions
from loci.story.people import Person, names_conflict, shares_a_name

if TYPE_CHECKING:
    from loci.story.service import StoryService

#: The most suggestions given at once.
MAX_SUGGESTIONS = 50

#: The fewest times an epithet is written for it to be suggested.
EPITHET_LEAST = 3
#: A title carried by several characters goes to one carrying it this many times as often as
#: the next.
EPITHET_DOMINANCE = 4
EPITHET = re.compile(r"\b[Tt]he ([A-Z][a-z]+)\b")
#: A title's short and long forms are one title ("Dr. Seward" is a doctor).
TITLE_FORMS = {
    "dr": "doctor",
    "prof": "professor",
    "capt": "captain",
    "col": "colonel",
    "gen": "general",
    "lt": "lieutenant",
    "sgt": "sergeant",
    "rev": "reverend",
    "adm": "admiral",
    "maj": "major",
    "gov": "governor",
    "mme": "madame",
    "mlle": "mademoiselle",
}


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
        company = Company.read(conn, found.id, entities)
    confirm = found.settings.confirm_after
    characters = [e for e in entities if e.kind == "character" and e.confirmed(confirm)]
    suggested = [
        *epithet_suggestions(epithets(text), characters),
        *same_person_suggestions(characters, company),
        *not_people_suggestions(characters),
    ]
    suggested.sort(key=lambda s: (-s.mentions, s.name, s.other))
    ranked = [s.model_copy(update={"number": n}) for n, s in enumerate(suggested[:limit], 1)]
    return CastSuggestions(
        session_id=session, suggestions=ranked, corrections=[c.described() for c in kept]
    )


@dataclass
class Company:
    """Whom each entity appears with: in paragraphs (its company) and in sentences."""

    paragraph: dict[int, Counter[int]] = field(default_factory=dict)
    sentence: dict[int, Counter[int]] = field(default_factory=dict)

    @classmethod
    def read(cls, conn: Connection, session: int, entities: Sequence[Entity]) -> Company:
        """The meetings of the session's names, by entity."""
        entity_of = {name: e.id for e in entities for name in e.names}
        company = cls()
        rows = conn.execute(
            "SELECT a, b, paragraph, sentence FROM story_meetings WHERE session = ?", (session,)
        )
        for a, b, paragraph, sentence in rows:
            x, y = entity_of.get(a), entity_of.get(b)
            if x is None or y is None or x == y:
                continue
            for one, other in ((x, y), (y, x)):
                company.paragraph.setdefault(one, Counter())[other] += int(paragraph)
                company.sentence.setdefault(one, Counter())[other] += int(sentence)
        return company

    def likeness(self, a: int, b: int) -> float:
        """How alike the company of `a` and `b` is (cosine of their paragraph meetings with
        everyone but each other): two names of one person keep the same company."""
        first, second = self.paragraph.get(a, Counter()), self.paragraph.get(b, Counter())
        shared = set(first) & set(second) - {a, b}
        dot = sum(first[k] * second[k] for k in shared)
        norms = math.sqrt(sum(v * v for k, v in first.items() if k != b)) * math.sqrt(
            sum(v * v for k, v in second.items() if k != a)
        )
        return dot / norms if norms else 0.0

    def met_in_sentences(self, a: int, b: int) -> int:
        """How often `a` and `b` were named in one sentence (two people, most often)."""
        return self.sentence.get(a, Counter())[b]

    def met(self, a: int, b: int) -> int:
        """How often `a` and `b` were named in one paragraph."""
        return self.paragraph.get(a, Counter())[b]


@dataclass(frozen=True)
class Epithet:
    """ "the <Title>" as the story writes it: how often, and the first sentence holding it."""

    written: str
    count: int
    sentence: str


def epithets(text: str) -> list[Epithet]:
    """The epithets of `text`: "the" and a title ("the Captain", "the Count"), written at
    least EPITHET_LEAST times."""
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    for match in EPITHET.finditer(text):
        title = match.group(1)
        if not names.is_title(title):
            continue
        counts[title] = counts.get(title, 0) + 1
        first.setdefault(title, match.start())
    return [
        Epithet(f"the {title}", count, _sentence(text, first[title]))
        for title, count in counts.items()
        if count >= EPITHET_LEAST
    ]


def epithet_suggestions(
    found: Sequence[Epithet], characters: Sequence[Entity]
) -> list[CastSuggestion]:
    """An alias for each epithet whose title one character carries ("the Captain" is
    Captain Hawkes), or carries far more often than anyone else."""
    held = {names.key(alias) for entity in characters for alias in entity.aliases}
    suggested = []
    for epithet in found:
        if names.key(epithet.written) in held:
            continue
        title = _title(names.key(epithet.written).split()[-1])
        carriers = sorted(
            (e for e in characters if title in _titles_of(e)), key=lambda e: -e.mentions
        )
        if not carriers:
            continue
        if len(carriers) > 1 and carriers[0].mentions < EPITHET_DOMINANCE * carriers[1].mentions:
            continue
        carrier = carriers[0]
        suggested.append(
            CastSuggestion(
                action="alias",
                name=carrier.name,
                other=epithet.written,
                mentions=epithet.count,
                reason=f"{epithet.written!r} is written {epithet.count} times, and "
                f"{carrier.name!r} is the story's {'only ' if len(carriers) == 1 else ''}"
                f"{title} by name",
                evidence=epithet.sentence,
            )
        )
    return suggested


def _title(word: str) -> str:
    return TITLE_FORMS.get(word, word)


def _titles_of(entity: Entity) -> set[str]:
    """The titles the entity's names carry, each in its long form."""
    return {_title(t) for alias in entity.aliases for t in names.parse(alias).titles}


def _sentence(text: str, at: int) -> str:
    """The sentence around `at`, on one line."""
    from loci.story import sentences

    left, right = sentences.around(text, at, at + 1)
    return " ".join(text[left:right].split())[:280]


#: Two names keep the same company when their likeness reaches this, and one of several
#: people a name fits wins when it is this much likelier than the next.
ALIKE = 0.6
CLEARLY_LIKELIER = 1.3
#: Two names met in one sentence this share of the smaller's mentions are two people.
APART_SHARE = 0.1


def person_of(entity: Entity) -> Person:
    """The entity's names as one person (what they say together)."""
    person = Person.named(entity.id, names.parse(entity.aliases[0]), kinds.Votes())
    for alias in entity.aliases[1:]:
        person.absorb(Person.named(entity.id, names.parse(alias), kinds.Votes()))
    person.count = entity.mentions
    return person


def same_person_suggestions(characters: Sequence[Entity], company: Company) -> list[CastSuggestion]:
    """Merges of a character into the one it most likely is: a name several people carry,
    given to the one who keeps its company; a married or maiden name, given to the woman seen
    beside the man whose name it is."""
    people = {e.id: person_of(e) for e in characters}
    suggested: list[CastSuggestion] = []
    for guest in sorted(characters, key=lambda e: e.mentions):
        hosts = [h for h in characters if h.mentions > guest.mentions and h.id != guest.id]
        best = _likeliest(guest, hosts, people, company)
        if best is not None:
            host, reason = best
            suggested.append(
                CastSuggestion(
                    action="merge",
                    name=host.name,
                    other=guest.name,
                    mentions=guest.mentions,
                    reason=reason,
                    evidence=guest.first.excerpt.split("\n")[0][:280],
                )
            )
    return suggested


def _likeliest(
    guest: Entity, hosts: Sequence[Entity], people: dict[int, Person], company: Company
) -> tuple[Entity, str] | None:
    """The host `guest` most likely is, with the reason in words, if one stands out."""
    mine = people[guest.id]
    fitting = [
        h
        for h in hosts
        if shares_a_name(mine, people[h.id])
        and not names_conflict(mine, people[h.id], (), marriage=False)
        and company.met_in_sentences(guest.id, h.id) <= APART_SHARE * guest.mentions
    ]
    ranked = sorted(fitting, key=lambda h: -company.likeness(guest.id, h.id))
    if ranked:
        top = company.likeness(guest.id, ranked[0].id)
        second = company.likeness(guest.id, ranked[1].id) if len(ranked) > 1 else 0.0
        if top >= ALIKE and top >= CLEARLY_LIKELIER * second:
            others = f" (of {len(ranked)} who carry the name)" if len(ranked) > 1 else ""
            return ranked[0], (
                f"{guest.name!r} shares a name with {ranked[0].name!r}{others} and keeps the "
                f"same company (likeness {top:.2f})"
            )
    return _married(guest, hosts, people, company)


def _married(
    guest: Entity, hosts: Sequence[Entity], people: dict[int, Person], company: Company
) -> tuple[Entity, str] | None:
    """For a married woman's name ("Mrs. Brooke"), the woman seen most beside the man whose
    name it carries (John Brooke), if she keeps its company."""
    mine = people[guest.id]
    if True not in mine.married or mine.sex != "f" or not mine.family:
        return None
    husbands = [h for h in hosts if people[h.id].sex == "m" and people[h.id].family & mine.family]
    wives = [h for h in hosts if people[h.id].sex != "m" and not people[h.id].family & mine.family]
    if not husbands or not wives:
        return None
    husband = max(husbands, key=lambda h: h.mentions)
    scored = sorted(
        ((company.met(w.id, husband.id) / max(1, w.mentions), w) for w in wives),
        key=lambda pair: -pair[0],
    )
    best_share, wife = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    alike = company.likeness(guest.id, wife.id)
    if best_share <= 0 or best_share < CLEARLY_LIKELIER * runner_up or alike < ALIKE / 2:
        return None
    return wife, (
        f"{guest.name!r} is a married name, {husband.name!r}'s, and {wife.name!r} is the "
        f"woman seen beside him most (likeness {alike:.2f})"
    )


#: Words of a name that is no person's: months, days, documents of an epistolary novel.
NOT_PERSON_WORDS = frozenset(
    (
        *("january", "february", "march", "april", "may", "june", "july", "august"),
        *("september", "october", "november", "december"),
        *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        *("journal", "diary", "log", "letter", "telegram", "memorandum", "postscript"),
        *("chapter", "volume", "book", "appendix", "preface"),
    )
)


def not_people_suggestions(characters: Sequence[Entity]) -> list[CastSuggestion]:
    """A character whose every name is a month, a day or a document is likely no person."""
    suggested = []
    for entity in characters:
        words = {w for alias in entity.aliases for w in names.key(alias).split()}
        if words and words <= NOT_PERSON_WORDS:
            suggested.append(
                CastSuggestion(
                    action="kind",
                    name=entity.name,
                    other="other",
                    mentions=entity.mentions,
                    reason=f"{entity.name!r} is a month, a day or a document, not a person",
                    evidence=entity.first.excerpt.split("\n")[0][:280],
                )
            )
    return suggested

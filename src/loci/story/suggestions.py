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

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from loci import fields
from loci.story import names, store
from loci.story.entity import Entity
from loci.story.models import CastSuggestion, CastSuggestions

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
    confirm = found.settings.confirm_after
    characters = [e for e in entities if e.kind == "character" and e.confirmed(confirm)]
    suggested = epithet_suggestions(epithets(text), characters)
    suggested.sort(key=lambda s: (-s.mentions, s.name, s.other))
    ranked = [s.model_copy(update={"number": n}) for n, s in enumerate(suggested[:limit], 1)]
    return CastSuggestions(
        session_id=session, suggestions=ranked, corrections=[c.described() for c in kept]
    )


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

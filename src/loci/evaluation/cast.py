"""How well a story's cast matches a spec's characters (see `../shared/eval/README.md`).

A spec character is a name and its aliases: the forms the text uses for one person. Forms are
compared as written, ignoring case, so an entity must list each form it was seen under.

- recall: the share of spec characters some character entity answers to (any form);
- cohesion: for each spec character, the share of its forms held by its single best character
  entity, averaged (fragments lower it);
- conflated: entities (of any kind) holding forms of two different spec characters;
- spurious: entities among the most mentioned characters whose name is a spec non-person or
  place;
- ceiling: the cohesion of a cast that joined rightly every form the text writes (a spec may
  list a full name the text never writes, "Victor Frankenstein": no cast of the text's names
  holds it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CastEntity:
    """What the metrics read of an entity: the name shown, every form it was seen under, and
    whether it is listed as a character."""

    name: str
    aliases: tuple[str, ...]
    character: bool

    @property
    def forms(self) -> set[str]:
        """Its name and aliases, lower case, without an article before them (an epithet the
        writer added, "the Woodman", is the form "Woodman")."""
        return {_form(self.name), *(_form(a) for a in self.aliases)}


def forms_of(character: dict[str, Any]) -> set[str]:
    """A spec character's name and aliases, lower case, without an article before them (the
    cast keeps "the Scarecrow" as "Scarecrow")."""
    return {_form(str(form)) for form in [character["name"], *character.get("aliases", [])]}


def _form(written: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+(?=\S)", "", written.lower())


def recall(listed: Sequence[dict[str, Any]], entities: Sequence[CastEntity]) -> float:
    """The share of listed characters that some character entity answers to."""
    seen = set().union(*(e.forms for e in entities if e.character))
    return _share(bool(forms_of(c) & seen) for c in listed)


def cohesion(listed: Sequence[dict[str, Any]], entities: Sequence[CastEntity]) -> float:
    """For each listed character, the share of its forms its best character entity holds,
    averaged."""
    characters = [e.forms for e in entities if e.character]
    shares = []
    for character in listed:
        wanted = forms_of(character)
        best = max((len(wanted & held) for held in characters), default=0)
        shares.append(best / len(wanted))
    return round(sum(shares) / len(shares), 3) if shares else 0.0


def ceiling(listed: Sequence[dict[str, Any]], text: str) -> float:
    """The best cohesion a cast of the names `text` writes can reach: for each listed
    character, the share of its forms written there (as whole words, ignoring case),
    averaged."""
    shares = []
    for character in listed:
        wanted = forms_of(character)
        shares.append(sum(_written(form, text) for form in wanted) / len(wanted))
    return round(sum(shares) / len(shares), 3) if shares else 0.0


def _written(form: str, text: str) -> bool:
    words = r"\s+".join(re.escape(word) for word in form.split())
    return re.search(rf"(?<![\w.]){words}(?!\w)", text, re.IGNORECASE) is not None


def conflated(listed: Sequence[dict[str, Any]], entities: Sequence[CastEntity]) -> list[str]:
    """The names of entities holding forms of two or more listed characters (forms that two
    characters share are left out: they prove nothing)."""
    owners: dict[str, set[int]] = {}
    for number, character in enumerate(listed):
        for form in forms_of(character):
            owners.setdefault(form, set()).add(number)
    unique = {form: next(iter(who)) for form, who in owners.items() if len(who) == 1}
    found = []
    for entity in entities:
        characters = {unique[f] for f in entity.forms if f in unique}
        if len(characters) >= 2:
            found.append(entity.name)
    return found


def spurious(top: Sequence[CastEntity], not_people: Iterable[str]) -> list[str]:
    """The names among `top` that are listed as not people (or as places)."""
    excluded = {name.lower() for name in not_people}
    return [e.name for e in top if e.name.lower() in excluded]


def _share(hits: Iterable[bool]) -> float:
    listed = list(hits)
    return round(sum(listed) / len(listed), 3) if listed else 0.0

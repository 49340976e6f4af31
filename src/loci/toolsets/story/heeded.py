"""Suggestions the writer's corrections have already answered, left out: a name the writer
marked a place or a thing is no character's to merge into ("Black Cherry", a lipstick's
colour, marked `other`, kept company with Leo, and was offered to him again); two entities a
split parted, or the writer kept apart (a suggestion declined), are not offered as one
("Thomas Hale Sr." split off "Tommy", his son); an entity whose kind the writer set is not
offered another kind. A suggestion must never undo what the
writer did by hand."""

from __future__ import annotations

from collections.abc import Sequence

from loci.toolsets.story import names
from loci.toolsets.story.corrections import Correction
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.models import CastSuggestion


def heeded(
    suggested: Sequence[CastSuggestion],
    kept: Sequence[Correction],
    entities: Sequence[Entity],
    parted: Sequence[tuple[str, str]] = (),
) -> list[CastSuggestion]:
    """`suggested`, without those a correction in `kept` already answers, nor those joining
    two names the story itself tells apart (`parted`: "Mr. Emerson", the father, and "George
    Emerson", `loci.toolsets.story.generations`)."""
    owner = {names.key(alias): e.id for e in entities for alias in e.aliases}
    kinds = {owner.get(names.key(c.name)): str(c.other) for c in kept if c.action == "kind"}
    kinds.pop(None, None)
    # A split says two entities are two people: the one split off and the one it left.
    apart: set[frozenset[int | str | None]] = set()
    for c in kept:
        if c.action == "split" and c.other:
            left = next((owner.get(names.key(k)) for k in c.kept if names.key(k) in owner), None)
            apart.add(frozenset({_owner(owner, c.other), left}))
        elif c.action == "apart" and c.other:
            apart.add(frozenset({_side(owner, c.name), _side(owner, c.other)}))
    apart |= {frozenset({_side(owner, a), _side(owner, b)}) for a, b in parted}
    return [s for s in suggested if not _answered(s, owner, kinds, apart)]


def _answered(
    suggestion: CastSuggestion,
    owner: dict[str, int],
    kinds: dict[int | None, str],
    apart: set[frozenset[int | str | None]],
) -> bool:
    host = owner.get(names.key(suggestion.name))
    if suggestion.action == "kind":
        return host in kinds
    guest = _owner(owner, suggestion.other)
    if guest is not None and kinds.get(guest, "character") != "character":
        return True
    kept_apart = frozenset({_side(owner, suggestion.name), _side(owner, suggestion.other)})
    return frozenset({host, guest}) in apart or kept_apart in apart


def _owner(owner: dict[str, int], name: str) -> int | None:
    """The entity holding `name`, as written or without its article."""
    return owner.get(names.key(name), owner.get(names.unarticled(name)))


def _side(owner: dict[str, int], name: str) -> int | str:
    """The entity holding `name`, else the name itself (an epithet no one holds yet, "the
    Captain", declined as a character's alias)."""
    found = _owner(owner, name)
    return names.unarticled(name) if found is None else found

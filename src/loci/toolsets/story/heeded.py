"""Suggestions the writer's corrections have already answered, left out: a name the writer
marked a place or a thing is no character's to merge into ("Black Cherry", a lipstick's
colour, marked `other`, kept company with Leo, and was offered to him again); a name split
off a character is not offered back to it; an entity whose kind the writer set is not offered
another kind. A suggestion must never undo what the writer did by hand."""

from __future__ import annotations

from collections.abc import Sequence

from loci.toolsets.story import names
from loci.toolsets.story.corrections import Correction
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.models import CastSuggestion


def heeded(
    suggested: Sequence[CastSuggestion], kept: Sequence[Correction], entities: Sequence[Entity]
) -> list[CastSuggestion]:
    """`suggested`, without those a correction in `kept` already answers."""
    owner = {names.key(alias): e.id for e in entities for alias in e.aliases}
    kinds = {owner.get(names.key(c.name)): str(c.other) for c in kept if c.action == "kind"}
    kinds.pop(None, None)
    split_off = {
        (owner.get(names.key(c.name)), names.key(c.other))
        for c in kept
        if c.action == "split" and c.other
    }
    return [s for s in suggested if not _answered(s, owner, kinds, split_off)]


def _answered(
    suggestion: CastSuggestion,
    owner: dict[str, int],
    kinds: dict[int | None, str],
    split_off: set[tuple[int | None, str]],
) -> bool:
    host = owner.get(names.key(suggestion.name))
    if suggestion.action == "kind":
        return host in kinds
    guest = owner.get(names.key(suggestion.other), owner.get(names.unarticled(suggestion.other)))
    if guest is not None and kinds.get(guest, "character") != "character":
        return True
    return (host, names.key(suggestion.other)) in split_off

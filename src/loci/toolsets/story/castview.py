"""A session's cast as read at one moment, with what reading it again and again needs.

Reading the cast (grouping a few thousand name rows) and building the maps a query looks up
(every name's key, each name's entity, the names to find in a text) would cost more than the
rest of assembling a context; a view is built once per change of the session and reused.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from loci.toolsets.story import names
from loci.toolsets.story.entity import Entity

#: Relations of entity sets kept per view (a context asks for those of the entities it names).
RELATED_KEPT = 64


class CastView:
    """The entities of a session, the key of every name of theirs, each name's entity, and
    every name as written (the gazetteer's list)."""

    def __init__(self, entities: Sequence[Entity], surfaces: Sequence[str]) -> None:
        self.entities = list(entities)
        self.surfaces = list(surfaces)
        self.by_key: dict[str, Entity] = {}
        for entity in self.entities:  # most mentioned first: a shared name is theirs
            for alias in entity.aliases:
                self.by_key.setdefault(names.key(alias), entity)
        self.entity_of = {name: e.id for e in self.entities for name in e.names}
        self.by_id = {e.id: e for e in self.entities}
        self._related: dict[frozenset[int], set[tuple[int, int]]] = {}

    def related(
        self, ids: Collection[int], read: Callable[[Collection[int]], set[tuple[int, int]]]
    ) -> set[tuple[int, int]]:
        """The relations touching `ids`, read once per view."""
        key = frozenset(ids)
        found = self._related.get(key)
        if found is None:
            if len(self._related) >= RELATED_KEPT:
                self._related.pop(next(iter(self._related)))
            found = self._related[key] = read(ids)
        return found

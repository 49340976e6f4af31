"""The writer's corrections of the cast, and how they apply over the automatic one.

Corrections are kept in order and replayed, last, over every resolution of who is who, so a
later reading of the story never undoes one:

- `merge` NAME OTHER: the two are one entity;
- `split` NAME OTHER: OTHER (one of NAME's names) is an entity of its own (a character if NAME
  is one, unless OTHER's name says it is a place: "Brantwell House"), with the names that are
  its own forms (`split_names.along`: "Dick" and "Dick Musgrove" with "Richard"),
  and no automatic resolution joins them to anyone again; the names NAME kept stay one
  entity (without the names split off, the evidence that joined them may no longer hold);
- `alias` NAME OTHER: OTHER is another name of NAME (found in the text from now on);
- `rename` NAME OTHER: the entity is shown as OTHER (which becomes one of its names);
- `kind` NAME OTHER: the entity is a `character`, a `place`, or `other` (not a character);
- `apart` NAME OTHER: OTHER is not NAME, whatever a suggestion says: the writer declined to
  join them, no suggestion offers it again, and no automatic resolution joins them (the cast
  is left as it is).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from loci.toolsets.story import names
from loci.toolsets.story.kinds import Kind
from loci.toolsets.story.place_names import is_a_place_by_name

Action = Literal["merge", "split", "alias", "rename", "kind", "apart"]
ACTIONS: tuple[Action, ...] = ("merge", "split", "alias", "rename", "kind", "apart")
KINDS_SET: tuple[Kind, ...] = ("character", "place", "other")
#: Who made a correction.
WRITER, LOCI = "writer", "loci"


@dataclass(frozen=True)
class Correction:
    """One correction of the writer's, as kept (`id`: its number in its story, once kept;
    never given twice)."""

    action: str
    name: str
    other: str | None
    interaction: int
    at: str
    id: int | None = None
    #: For a split: the names the entity kept, which stay together.
    kept: tuple[str, ...] = ()
    #: For a split: the names that went with the one split off (its own forms).
    along: tuple[str, ...] = ()
    #: Whether it brought names the story had not met (kept, it has a number).
    added: bool = False
    #: Who made it: "writer", or "loci" for a suggestion loci accepted itself at import.
    by: str = WRITER

    @classmethod
    def from_row(cls, row: Sequence[object]) -> Correction:
        """A correction from its row (action, name, other, interaction, at, number, created,
        kept, along, made_by)."""
        action, name, other, interaction, at, number, created, kept, along, by = row
        return cls(
            str(action),
            str(name),
            None if other is None else str(other),
            int(str(interaction)),
            str(at),
            int(str(number)),
            tuple(json.loads(str(kept))),
            tuple(json.loads(str(along))),
            bool(json.loads(str(created))),
            str(by),
        )

    def split_off(self) -> list[str]:
        """For a split: the name split off, and the names that went with it."""
        return [self.other, *self.along] if self.action == "split" and self.other else []

    def new_names(self) -> list[str]:
        """Names the correction brings that the story may not have met yet (a kind may name
        words the story writes where NER saw no name: "Harriet")."""
        if self.action == "kind":
            return [self.name]
        return [self.other] if self.action in ("alias", "rename") and self.other else []

    def described(self) -> str:
        """The correction in words, for character info."""
        what = {
            "merge": f"{self.other!r} merged into {self.name!r}",
            "split": f"{self.other!r} split off from {self.name!r}{self._along()}",
            "alias": f"{self.other!r} added as a name of {self.name!r}",
            "rename": f"{self.name!r} renamed {self.other!r}",
            "kind": f"{self.name!r} marked as {self.other}",
            "apart": f"{self.other!r} kept apart from {self.name!r}",
        }.get(self.action, self.action)
        number = "" if self.id is None else f"#{self.id}: "
        if self.by == LOCI:
            return f"{number}{what} by loci, a suggestion it was sure of, accepted at import"
        return f"{number}{what} by the writer (interaction {self.interaction})"

    def _along(self) -> str:
        return f" (with {', '.join(map(repr, self.along))})" if self.along else ""


@dataclass
class Cast:
    """Who is who: each name's entity and each name's kind, and the names shown."""

    person_of: dict[int, int]
    kind_of: dict[int, Kind]
    shown: dict[int, str]

    def members(self, person: int) -> list[int]:
        """The names of `person`."""
        return [name for name, owner in self.person_of.items() if owner == person]

    def move(self, names_moved: list[int], person: int) -> None:
        """Put `names_moved` in `person` (which takes the kind of its head)."""
        for name in names_moved:
            self.person_of[name] = person


def _together(cast: Cast, kept: list[int]) -> None:
    """Put the `kept` names into one person, with the names the cast joined to them since,
    but never with another entity: a kept name the cast, worked out again, put into a person
    headed by a name not kept comes out of it alone ("Robert", of the Robert the writer split
    "Mr. Ferrars" off, had joined Lucy by "Mrs. Robert Ferrars", and took his names there)."""
    if not kept:
        return
    ours = set(kept)
    heads = [cast.person_of[name] for name in kept]
    person = next((head for head in heads if head in ours), kept[0])
    for name, head in zip(kept, heads, strict=True):
        cast.move(cast.members(head) if head in ours else [name], person)


def kept_apart(corrections: list[Correction], id_of: Mapping[str, int]) -> set[int]:
    """The names split off by the writer (and those that went with them): no automatic
    resolution joins them."""
    split = (names.key(w) for c in corrections if c.action == "split" for w in c.split_off())
    return {id_of[key] for key in split if key in id_of}


def declined(corrections: list[Correction], id_of: Mapping[str, int]) -> set[frozenset[int]]:
    """The pairs of names the writer kept apart: no automatic resolution makes them one. Two
    names the writer gave different kinds are apart too ("Fanny", a dog marked other, was
    joined to "Frances" when `kind` added her as a character, and made her a dog's)."""
    pairs = [
        (id_of.get(names.key(c.name)), id_of.get(names.key(c.other or "")))
        for c in corrections
        if c.action == "apart"
    ]
    kind_of = {id_of.get(names.key(c.name)): c.other for c in corrections if c.action == "kind"}
    pairs += [(a, b) for a in kind_of for b in kind_of if kind_of[a] != kind_of[b]]
    return {frozenset({a, b}) for a, b in pairs if a is not None and b is not None}


def replay(cast: Cast, corrections: list[Correction], id_of: Mapping[str, int]) -> Cast:
    """`cast` with the corrections applied in order (one naming a name the story no longer
    has is skipped). A name joining an entity makes it a character if the name is one's,
    unless the writer set the entity's kind ("Gull Scar" marked a place keeps its kind when
    "the Scar" is added as its alias)."""
    decided: set[int] = set()
    for correction in corrections:
        name = id_of.get(names.key(correction.name))
        other = id_of.get(names.key(correction.other or ""))
        if name is None:
            continue
        person = cast.person_of[name]
        if correction.action in ("merge", "alias", "rename") and other is not None:
            moved = cast.members(cast.person_of[other])
            cast.move(moved if correction.action == "merge" else [other], person)
            joins_a_character = cast.kind_of.get(other) == "character"
            if joins_a_character and person not in decided:
                cast.kind_of[person] = "character"
            if correction.action == "rename":
                cast.shown[person] = str(correction.other)
        elif correction.action == "split" and other is not None:
            along = [id_of[k] for k in map(names.key, correction.along) if k in id_of]
            cast.move([other, *along], other)
            cast.shown.pop(other, None)
            # A name split off a character is one too, whatever its own few cues say
            # ("Linton Heathcliff", split off Heathcliff, became a place), unless it names one.
            if cast.kind_of.get(person) == "character" and not is_a_place_by_name(
                str(correction.other)
            ):
                cast.kind_of[other] = "character"
            _together(cast, [id_of[k] for k in map(names.key, correction.kept) if k in id_of])
        elif correction.action == "kind" and correction.other in KINDS_SET:
            cast.kind_of[person] = correction.other
            decided.add(person)
    for name, person in cast.person_of.items():
        cast.kind_of[name] = cast.kind_of.get(person, cast.kind_of.get(name, "unknown"))
    return cast

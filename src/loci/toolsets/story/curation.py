"""The writer curates the cast: rename, merge, split off a name, add a name, say what an
entity is. Each correction is checked against the cast as it stands, kept in order, and
applied over every later resolution (`loci.toolsets.story.corrections`)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from loci import fields
from loci.errors import ConflictError, InvalidInputError, LociError, NotFoundError
from loci.timeutil import now
from loci.toolsets.story import lookup, names, store
from loci.toolsets.story.corrections import ACTIONS, KINDS_SET, Correction
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.models import CastSuggestion, CharacterInfo, UndoResult
from loci.toolsets.story.people import Person, names_conflict, sex_conflict
from loci.toolsets.story.rereading import read_without, reread
from loci.toolsets.story.suggestions import person_of

if TYPE_CHECKING:
    from loci.toolsets.story.service import StoryService


def correct(
    service: StoryService, session_id: str, action: str, name: str, other: str
) -> CharacterInfo:
    """Apply a correction of the writer's to the cast of `session_id`; returns the entity
    as it stands after it (for `split`, the name split off)."""
    session = service.session_name(session_id)
    if action not in ACTIONS:
        raise InvalidInputError(
            f"action must be one of {', '.join(ACTIONS)}, got {fields.shown(action)}",
            field="action",
        )
    name = fields.name(name, "name")
    other = fields.name(other, "other")
    with service.db.write() as conn:
        found = store.session(conn, session)
        entities = service.graph.entities(conn, found.id)
        entity = _found(entities, name, session)
        try:
            written = _checked(entities, entity, action, name, other, session)
        except NotFoundError as refused:
            text = store.rendered(conn, found.id, prompts="omit")
            raise _no_name_there(refused, text, entities, entity, other) from None
        # A split keeps the entity's other names together, as they stood.
        kept = tuple(a for a in entity.aliases if names.key(a) != names.key(other))
        correction = Correction(
            action,
            written,
            other,
            found.interactions,
            now(),
            kept=kept if action == "split" else (),
        )
        created = service.graph.correct(conn, found.id, correction)
        if created:  # a name new to the story: read the text already stored for it
            read = reread(conn, service.graph, service.extractor, found, correction.new_names())
            if action == "alias" and not read:
                raise _inside_another(entities, entity, other) or _never_written(
                    entities, other, session, "an alias"
                )
        service.graph.resolve(conn, found.id)
        store.save_session(conn, found)
        after = service.graph.entities(conn, found.id)
        shown = lookup.find(after, other if action in ("split", "rename") else written)
        assert shown is not None  # the name exists: it was checked, or the correction made it
        relations = service.graph.related(conn, after, [shown.id])
    met = lookup.relationships(shown.id, relations, after)
    result = lookup.info(session, shown, found.settings.confirm_after, met)
    if action == "merge":
        result.warning = _two_people(entity, _written(entities, other, session))
    elif action == "kind":
        result.warning = _whole_entity(entity, name, other)
    return result


def _whole_entity(entity: Entity, name: str, kind: str) -> str | None:
    """The warning of a kind given by one of several names of an entity: the whole entity
    takes it ("Graham Petty Cc", a stray name of Graham Petty, marked other, made him other)."""
    if names.key(name) == names.key(entity.name) or len(entity.written) < 2:
        return None
    return (
        f"{name!r} is one of the names of {entity.name!r}: the whole entity is {kind} now; to "
        f"mark {name!r} alone, undo this (`loci story undo`) and split it off first"
    )


@dataclass
class Accepted:
    """What accepting suggestions did: the entities as each applied one left them, and the
    error of each refused, by its number."""

    applied: list[CharacterInfo] = field(default_factory=list)
    refused: dict[int, LociError] = field(default_factory=dict)


def accept(service: StoryService, session_id: str, chosen: Sequence[CastSuggestion]) -> Accepted:
    """Apply the suggestions `chosen`, in order: one refused (an earlier one took its name,
    say) is reported, and the others are still applied."""
    done = Accepted()
    for suggestion in chosen:
        try:
            done.applied.append(
                correct(service, session_id, suggestion.action, suggestion.name, suggestion.other)
            )
        except LociError as exc:
            done.refused[suggestion.number] = exc
    return done


def undo(service: StoryService, session_id: str, number: int | None = None) -> UndoResult:
    """Take back the writer's last correction of the cast of `session_id` (or correction
    `number`), with the names it brought; the cast is worked out again without it."""
    session = service.session_name(session_id)
    if number is not None:
        number = fields.bounded_int(number, 1, fields.MAX_COUNT, "correction")
    with service.db.write() as conn:
        found = store.session(conn, session)
        if number is not None:
            _refuse_under_later(service.graph.corrections(conn, found.id), number, session)
        undone = service.graph.undo(conn, found.id, number)
        known = {names.key(s) for s in service.graph.surfaces(conn, found.id)}
        gone = [n for n in undone.new_names() if names.key(n) not in known]
        read_without(conn, service.graph, service.extractor, found, gone)
        service.graph.resolve(conn, found.id)
        store.save_session(conn, found)
        left = service.graph.corrections(conn, found.id)
    return UndoResult(
        session_id=session,
        undone=undone.described(),
        corrections=[c.described() for c in left],
    )


def _refuse_under_later(kept: list[Correction], number: int, session: str) -> None:
    """Refuse to undo correction `number` when a later one names a name it names: the later
    one would then mean something else (a name marked "other" after it was split off would
    take its whole first entity with it)."""
    target = next((c for c in kept if c.id == number), None)
    if target is None:
        return  # not kept: `undo` says why
    later = [c for c in kept if (c.id or 0) > number and _touched(c) & _relied_on(target)]
    if later:
        last_first = ", ".join(f"#{c.id}" for c in reversed(later))
        raise ConflictError(
            f"correction #{number} cannot be undone alone: later ones name its names, and "
            "would mean something else without it: "
            + "; ".join(f"{c.described()} names {_shared(c, target)}" for c in later)
            + f". Undo {last_first} first, then #{number} "
            f"(`loci story undo {session} N`, last first)",
            correction=number,
            later=[c.id for c in later],
        )


def _shared(later: Correction, target: Correction) -> str:
    """The names `target` names that `later` names too, quoted as `target` writes them."""
    both = _touched(later) & _relied_on(target)
    written = [target.name, *target.kept, target.other or ""]
    return " and ".join(dict.fromkeys(repr(w) for w in written if w and names.key(w) in both))


def _relied_on(correction: Correction) -> set[str]:
    """The names whose meaning a correction changes, which a later one may rely on: an
    alias's new name only ("the Queen"), not the name it was added to, which the story
    writes itself and keeps ("Queen of the Marsh")."""
    if correction.action == "alias" and correction.other:
        return {names.key(correction.other)}
    return _touched(correction)


def _touched(correction: Correction) -> set[str]:
    """The names a correction names (a kind is no name)."""
    written = {correction.name, *correction.kept}
    if correction.other and correction.action != "kind":
        written.add(correction.other)
    return {names.key(w) for w in written}


def listing(service: StoryService, session_id: str) -> list[str]:
    """The writer's corrections of the cast, in order, each with its number."""
    session = service.session_name(session_id)
    with service.db.snapshot() as conn:
        found = store.session(conn, session)
        return [c.described() for c in service.graph.corrections(conn, found.id)]


def _two_people(entity: Entity, other: Entity) -> str | None:
    """Why two merged entities look like two people, if they do (their names conflict)."""
    mine, theirs = person_of(entity), person_of(other)
    if not names_conflict(mine, theirs, (), marriage=False):
        return None
    return (
        f"{entity.name!r} and {other.name!r} look like two people ({_why_two(mine, theirs)}); "
        "merged as asked: "
        "undo_cast_correction (`loci story undo`) takes it back"
    )


def _why_two(mine: Person, theirs: Person) -> str:
    """What says two merged entities are two people, in words."""
    if sex_conflict(mine, theirs):
        return "a man and a woman"
    a, b = mine.surnames | mine.surnamish, theirs.surnames | theirs.surnamish
    if a and b and not a & b:
        return (
            f"two family names, {_listed(a)} and {_listed(b)}, as a woman's maiden and "
            "married names may be"
        )
    if (
        mine.given
        and theirs.given
        and not any(names.same_given(x, y) for x in mine.given for y in theirs.given)
    ):
        return f"two given names, {_listed(mine.given)} and {_listed(theirs.given)}"
    return "their names do not fit together"


def _listed(words: set[str]) -> str:
    return " or ".join(sorted(w.capitalize() for w in words))


def _found(entities: list[Entity], name: str, session: str) -> Entity:
    entity = lookup.find(entities, name)
    if entity is None:
        raise NotFoundError(
            f"the story {session!r} names nothing called {fields.shown(name)}",
            session_id=session,
            name=name,
        )
    return entity


def _written(entities: list[Entity], other: str, session: str) -> Entity:
    """The entity the story writes `other` for. A merge is kept under the name given and
    replayed by it (`corrections.replay`), so a name the story never writes (a misspelling,
    one word of a longer name) would be logged and change nothing: it is refused, with the
    story's names closest to it."""
    wanted = names.key(other)
    for entity in entities:
        if any(names.key(alias) == wanted for alias in [entity.name, *entity.written]):
            return entity
    raise _never_written(entities, other, session, "a merge")


def _inside_another(entities: list[Entity], entity: Entity, other: str) -> ConflictError | None:
    """The refusal of an alias the story writes only inside a longer name of its own ("Walter
    Ridley" of "Sold Walter Ridley", where the longer name wins), naming the merge to make."""
    wanted = f" {names.key(other)} "
    for holder in entities:
        inside = [a for a in holder.written if wanted in f" {names.key(a)} " and a != other]
        if inside and holder.id != entity.id:
            return ConflictError(
                f"the story writes {other!r} only inside {inside[0]!r}, a name of its own: "
                f"merge {holder.name!r} into {entity.name!r} instead",
                field="other",
            )
    return None


def _no_name_there(
    refused: NotFoundError, text: str, entities: list[Entity], entity: Entity, other: str
) -> LociError:
    """The refusal of a merge naming words the story writes where the cast found no name
    ("Little stag", a dragon's word for the boy): `alias` adds them; else (words written only
    inside a name, "Reed" of "Tobias Reed", or not at all) `refused`."""
    inside = any(
        f" {names.key(other)} " in f" {names.key(a)} " for e in entities for a in e.written
    )
    if inside or not re.search(rf"(?<![\w.]){re.escape(other)}(?!\w)", text, re.IGNORECASE):
        return refused
    return NotFoundError(
        f"the story writes {other!r}, but the cast holds no name {other!r} to merge: add it "
        f"to {entity.name!r} with alias",
        name=other,
    )


def _never_written(entities: list[Entity], other: str, session: str, what: str) -> NotFoundError:
    """The refusal of a correction naming something the story never writes, with the
    story's names closest to it."""
    written = sorted({alias for e in entities for alias in [e.name, *e.aliases]})
    close = difflib.get_close_matches(other, written, n=3, cutoff=0.6)
    fitting = lookup.find(entities, other)
    if fitting is not None and fitting.name not in close:
        close.insert(0, fitting.name)
    hint = f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""
    return NotFoundError(
        f"the story {session!r} never writes {fields.shown(other)} ({what} needs a name as "
        f"the story writes it){hint}",
        session_id=session,
        name=other,
    )


def _checked(
    entities: list[Entity], entity: Entity, action: str, name: str, other: str, session: str
) -> str:
    """The name of `entity` the correction is kept under; refuses what cannot apply."""
    own = {names.key(alias) for alias in entity.aliases}
    holder = next(
        (e for e in entities if names.key(other) in {names.key(a) for a in e.aliases}), None
    )
    if action == "merge":
        target = _written(entities, other, session)
        if target.id == entity.id:
            raise InvalidInputError(f"{name!r} and {other!r} are one entity already", field="other")
    elif action == "split" and names.key(other) in {names.key(d) for d in entity.derived}:
        inside = [a for a in entity.written if names.key(other) in names.key(a)]
        raise InvalidInputError(
            f"the story writes {other!r} only inside {', '.join(map(repr, inside))}: split "
            "that name off instead",
            field="other",
        )
    elif action == "split" and names.key(other) == names.key(_kept_name(entity, name)):
        rest = [a for a in entity.written if names.key(a) != names.key(other)]
        raise InvalidInputError(
            f"{name!r} names {other!r} itself here: to split {other!r} off, name the entity by "
            f"another of its names ({', '.join(map(repr, rest)) or 'it has none'})",
            field="other",
        )
    elif action == "split" and names.key(other) not in {names.key(a) for a in entity.written}:
        raise InvalidInputError(
            f"{other!r} is not another name of {entity.name!r} (its names: "
            f"{', '.join(entity.written)})",
            field="other",
        )
    elif action in ("alias", "rename") and holder is not None and holder.id != entity.id:
        held = "an entity of its own" if holder.name == other else f"a name of {holder.name!r}"
        raise ConflictError(
            f"{other!r} is already {held}: merge {holder.name!r} into {entity.name!r} instead",
            field="other",
        )
    elif action == "alias" and names.key(other) in own:
        raise InvalidInputError(f"{other!r} is already a name of {entity.name!r}", field="other")
    elif action == "alias" and names.unarticled(other) in own:
        raise InvalidInputError(
            f"{other!r} is already a name of {entity.name!r}: the story's names are kept "
            'without "the", and each of its uses is counted already',
            field="other",
        )
    elif action == "kind" and other not in KINDS_SET:
        raise InvalidInputError(
            f"kind must be one of {', '.join(KINDS_SET)}, got {fields.shown(other)}",
            field="other",
        )
    return _kept_name(entity, name)


def _kept_name(entity: Entity, name: str) -> str:
    """The name of the entity a correction is kept under: the one the writer gave, when the
    story writes it, else the entity's most used name."""
    stored = entity.written
    wanted = names.key(name)
    return next((alias for alias in stored if names.key(alias) == wanted), stored[0])

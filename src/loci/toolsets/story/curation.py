"""The writer curates the cast: rename, merge, split off a name, add a name, say what an
entity is. Each correction is checked against the cast as it stands, kept in order, and
applied over every later resolution (`loci.toolsets.story.corrections`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from loci import fields
from loci.errors import ConflictError, InvalidInputError, LociError, NotFoundError
from loci.storage.databases.db import Connection
from loci.timeutil import now
from loci.toolsets.story import correction_checks as checks
from loci.toolsets.story import lookup, names, split_names, store
from loci.toolsets.story.corrections import ACTIONS, WRITER, Correction
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.models import CastSuggestion, CharacterInfo, UndoResult
from loci.toolsets.story.rereading import read_without, reread

if TYPE_CHECKING:
    from loci.toolsets.story.service import StoryService


def correct(
    service: StoryService,
    session_id: str,
    action: str,
    name: str,
    other: str,
    *,
    by: str = WRITER,
) -> CharacterInfo:
    """Apply a correction of the writer's (or, `by` loci, one loci was sure of) to the cast
    of `session_id`; returns the entity as it stands after it (for `split`, the name split
    off)."""
    session = service.session_name(session_id)
    if action not in ACTIONS:
        raise InvalidInputError(
            f"action must be one of {', '.join(ACTIONS)}, got {fields.shown(action)}",
            field="action",
        )
    name = fields.name(name, "name")
    other = fields.name(other, "other")
    if action == "kind":
        other = other.lower()  # "Other", as a writer types it, is the kind "other"
    with service.db.write() as conn:
        found = store.session(conn, session)
        entities = service.graph.entities(conn, found.id)
        name = checks.held_form(entities, name)
        entity = lookup.holder(entities, name)
        if action in ("merge", "split", "apart"):
            other = checks.held_form(entities, other)
        if entity is None:  # only a kind may name what the cast does not hold: it adds it
            text = store.rendered(conn, found.id, prompts="omit")
            written = checks.unheld(text, entities, (action, name, other), session)
            kept: tuple[str, ...] = ()
            along: tuple[str, ...] = ()
        else:
            written = _target(conn, found.id, entities, entity, (action, name, other), session)
            if action == "kind":
                checks.refuse_a_kind_given(service.graph.corrections(conn, found.id), entity, other)
            elif action == "apart":
                text = store.rendered(conn, found.id, prompts="omit")
                checks.apart_written(text, entities, other, session)
                _refuse_kept_apart(
                    service.graph.corrections(conn, found.id), (name, written), other
                )
            # A split takes the name's own forms along, and keeps the entity's other names
            # together, as they stood.
            along = split_names.along(entity, written, other) if action == "split" else ()
            off = {names.key(a) for a in (other, *along)}
            kept = tuple(a for a in entity.aliases if names.key(a) not in off)
        correction = Correction(
            action,
            written,
            other,
            found.interactions,
            now(),
            kept=kept if action == "split" else (),
            along=along,
            by=by,
        )
        created = service.graph.correct(conn, found.id, correction)
        if created:  # a name new to the story: read the text already stored for it
            read = reread(conn, service.graph, service.extractor, found, correction.new_names())
            if action == "alias" and not read and entity is not None:
                raise checks.inside_another(entities, entity, other) or checks.never_written(
                    entities, other, session, "an alias"
                )
        service.graph.resolve(conn, found.id)
        store.save_session(conn, found)
        after = service.graph.entities(conn, found.id)
        shown = lookup.find(after, other if action in ("split", "rename") else written)
        assert shown is not None  # the name exists: it was checked, or the correction made it
        relations = service.graph.related(conn, after, [shown.id])
        merged = checks.written_entity(entities, other, session) if action == "merge" else None
        cases = service.graph.word_cases(conn, found.id, shown.aliases) if merged else {}
    met = lookup.relationships(shown.id, relations, after)
    result = lookup.info(session, shown, found.settings.confirm_after, met)
    if merged is not None and entity is not None:
        result.warning = checks.two_people(entity, merged, cases)
    elif action == "kind" and entity is not None:
        result.warning = checks.whole_entity(entity, name, other)
        if entity.kind == other:  # recorded all the same: later text will not change it
            result.warning = f"{entity.name!r} was {kind_in_words(other)} already: it stays so"
    elif action == "split" and entity is not None:
        result.warning = split_names.left_behind(entity, written, other, along)
    holder = lookup.holder(entities, other)
    joined = {e.id for e in entities if action in ("merge", "alias") and e in (entity, holder)}
    moved = checks.moved_elsewhere(entities, after, joined)
    whole = _whole_merged(entity, holder, other) if action == "merge" else None
    result.warning = "; ".join(w for w in (result.warning, whole, moved) if w) or None
    return result


def kind_in_words(kind: str) -> str:
    """A kind in words: "a place", but "other (not a character)", not "a other"."""
    return "other (not a character)" if kind == "other" else f"a {kind}"


def _refuse_kept_apart(kept: list[Correction], name: tuple[str, str], other: str) -> None:
    """Refuse to keep apart two names the writer keeps apart already: a correction that
    changes nothing would only hold back undoing the one before it."""
    pairs = [{names.key(n), names.key(other)} for n in name]
    for correction in kept:
        pair = {names.key(correction.name), names.key(correction.other or "")}
        if correction.action == "apart" and pair in pairs:
            raise InvalidInputError(
                f"{name[0]!r} and {other!r} are kept apart already (correction #{correction.id})",
                field="other",
            )


def _whole_merged(entity: Entity | None, holder: Entity | None, other: str) -> str | None:
    """The warning of a merge naming one of several names of another entity (`holder`, the
    one holding `other`): the whole of it joins, not that name alone ("Sir Reginald De
    Courcy", a name of his son's entity, took the son along)."""
    if holder is None or entity is None or holder.id == entity.id or len(holder.aliases) < 2:
        return None
    if names.key(holder.name) == names.key(other):
        return None
    return (
        f"{other!r} was one of the {len(holder.aliases)} names of {holder.name!r} "
        f"({holder.mentions} mentions), and all of them joined: to move that name alone, "
        "undo this (undo_cast_correction, `loci story undo`) and split it off first"
    )


def _target(
    conn: Connection,
    session_id: int,
    entities: list[Entity],
    entity: Entity,
    correction: tuple[str, str, str],
    session: str,
) -> str:
    """The name of `entity` the correction (action, name, other) is kept under; refuses what
    cannot apply."""
    action, name, other = correction
    try:
        return checks.checked(entities, entity, action, name, other, session)
    except NotFoundError as refused:
        text = store.rendered(conn, session_id, prompts="omit")
        raise checks.no_name_there(refused, text, entities, entity, other) from None


@dataclass
class Accepted:
    """What accepting suggestions did: the entities as each applied one left them, the error
    of each refused and the warning of each applied that gave one, by its number."""

    applied: list[CharacterInfo] = field(default_factory=list)
    refused: dict[int, LociError] = field(default_factory=dict)
    warnings: dict[int, str] = field(default_factory=dict)


def accept(
    service: StoryService,
    session_id: str,
    chosen: Sequence[CastSuggestion],
    *,
    declining: bool = False,
    by: str = WRITER,
) -> Accepted:
    """Apply the suggestions `chosen` (with `declining`, say they are wrong: `decline`), in
    order, as corrections made `by` the writer or loci: one refused (an earlier one took its
    name, say) is reported, and the others are still applied."""
    done = Accepted()
    before = _entity_names(service, session_id)
    for suggestion in chosen:
        try:
            if done.applied and not declining:
                _still_holds(suggestion, before, _entity_names(service, session_id))
            if declining:
                result = decline(service, session_id, suggestion)
            else:
                result = correct(
                    service,
                    session_id,
                    suggestion.action,
                    suggestion.name,
                    suggestion.other,
                    by=by,
                )
        except LociError as exc:
            done.refused[suggestion.number] = exc
            continue
        done.applied.append(result)
        if result.warning:
            done.warnings[suggestion.number] = result.warning
    return done


def _entity_names(service: StoryService, session_id: str) -> dict[str, tuple[str, set[str]]]:
    """Each name of the cast (its key), with its entity's name and all its names' keys."""
    session = service.session_name(session_id)
    with service.db.snapshot() as conn:
        entities = service.graph.entities(conn, store.session(conn, session).id)
    return {
        names.key(alias): (e.name, {names.key(a) for a in e.aliases})
        for e in entities
        for alias in e.aliases
    }


def _still_holds(
    suggestion: CastSuggestion,
    before: dict[str, tuple[str, set[str]]],
    after: dict[str, tuple[str, set[str]]],
) -> None:
    """Refuse a merge or alias whose name an earlier suggestion accepted with it put into a
    third entity: "Miss Dashwood", offered to Elinor and to Marianne, must not take Elinor
    into Marianne once the first is accepted."""
    other, host = names.key(suggestion.other), names.key(suggestion.name)
    if suggestion.action == "kind" or other not in before or other not in after:
        return
    came = after[other][1] - before[other][1] - before.get(host, ("", set()))[1]
    if came:
        raise ConflictError(
            f"{suggestion.other!r} is now a name of {after[other][0]!r}, by a suggestion "
            "accepted before this one: list the suggestions again to see what still holds",
            field="other",
        )


def decline(service: StoryService, session_id: str, suggestion: CastSuggestion) -> CharacterInfo:
    """Say a suggestion is wrong, so it is not offered again: a merge or an alias by keeping
    its two names apart; a kind by setting the kind the entity has, or, for a name the cast
    holds for no one ("Marquis", suggested as a character), by saying it is none."""
    if suggestion.action != "kind":
        return correct(service, session_id, "apart", suggestion.name, suggestion.other)
    try:
        kind = lookup.character(service, session_id, suggestion.name).kind
    except NotFoundError:
        kind = "other"
    return correct(service, session_id, "kind", suggestion.name, kind)


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
    take its whole first entity with it). A kind moves no name: only one that added its name
    to the story is relied on (a newcomer could not undo a kind once a later split named the
    name it was given)."""
    target = next((c for c in kept if c.id == number), None)
    if target is None:
        return  # not kept: `undo` says why
    relied_on = _relied_on(target) if target.action != "kind" or target.added else set()
    later = [c for c in kept if (c.id or 0) > number and _touched(c) & relied_on]
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
    written = [target.name, *target.kept, target.other or "", *target.along]
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
    written = {correction.name, *correction.kept, *correction.along}
    if correction.other and correction.action != "kind":
        written.add(correction.other)
    return {names.key(w) for w in written}


def listing(service: StoryService, session_id: str) -> list[str]:
    """The corrections of the cast (the writer's and loci's), in order, each with its
    number."""
    session = service.session_name(session_id)
    with service.db.snapshot() as conn:
        found = store.session(conn, session)
        return [c.described() for c in service.graph.corrections(conn, found.id)]

"""What a correction of the cast may do, and what it may not: the name a correction is kept
under, the refusals of what cannot apply (each with what the story does write), and the
warnings of what applies but looks wrong (two people merged, a kind given to a whole entity by
one of its names)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from loci import fields
from loci.errors import ConflictError, InvalidInputError, LociError, NotFoundError
from loci.toolsets.story import census, given_names, lookup, names
from loci.toolsets.story.common_words import reduced
from loci.toolsets.story.corrections import KINDS_SET, Correction
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.people import Person, names_conflict, sex_conflict
from loci.toolsets.story.reading import WordCase
from loci.toolsets.story.suggestions import person_of


def refuse_a_kind_given(kept: list[Correction], entity: Entity, kind: str) -> None:
    """Refuse to mark an entity with the kind the writer's latest kind for it gave already: a
    correction that changes nothing would only hold back undoing the one before it."""
    own = {names.key(a) for a in entity.aliases}
    given = [c for c in kept if c.action == "kind" and names.key(c.name) in own]
    if given and given[-1].other == kind:
        raise InvalidInputError(
            f"{entity.name!r} is marked {kind} already (correction #{given[-1].id})",
            field="other",
        )


def unheld(
    text: str, entities: list[Entity], correction: tuple[str, str, str], session: str
) -> str:
    """The name of a correction (action, name, other) that the cast does not hold, when the
    correction may add it: a kind given to words the story writes as a name (capitalised,
    whole), as "Harriet", written three times where NER saw no name, is a character; else
    the refusal, with the story's names closest to it. A name the story never writes is no
    entity's whose names it fits: "Lady Jory" is refused, not taken for Jory."""
    action, name, kind = correction
    written = lookup.writes_as_a_name(text, name)
    if action == "kind" and kind in KINDS_SET and written:
        return name
    if written:
        hint = f"; the story writes it: `kind` adds it ({', '.join(KINDS_SET)})"
    elif close := _closest_names(entities, name):
        hint = f"; did you mean {' or '.join(repr(n) for n in close)}?"
    else:
        hint = ""
    raise NotFoundError(
        f"the story {session!r} names nothing called {fields.shown(name)}{hint}",
        session_id=session,
        name=name,
    )


def whole_entity(entity: Entity, name: str, kind: str) -> str | None:
    """The warning of a kind given by one of several names of an entity: the whole entity
    takes it ("Graham Petty Cc", a stray name of Graham Petty, marked other, made him other)."""
    if names.key(name) == names.key(entity.name) or len(entity.written) < 2:
        return None
    return (
        f"{name!r} is one of the names of {entity.name!r}: the whole entity is {kind} now; to "
        f"mark {name!r} alone, undo this (`loci story undo`) and split it off first"
    )


def two_people(
    entity: Entity, other: Entity, cases: Mapping[str, WordCase] | None = None
) -> str | None:
    """Why two merged entities look like two people, if they do (their names conflict). The
    common words around a name (`cases`: how the story writes them) are no part of it:
    "Pretty Linton" is Linton, no "Pretty" of the Linton family."""
    words = cases or {}
    mine, theirs = person_of(_plain(entity, words)), person_of(_plain(other, words))
    _called_by_given_name(mine, theirs)
    _called_by_given_name(theirs, mine)
    if not names_conflict(mine, theirs, (), marriage=False) and not _given_apart(mine, theirs):
        return None
    if _maiden_and_married(mine, theirs):
        return None
    return (
        f"{entity.name!r} and {other.name!r} look like two people ({_why_two(mine, theirs)}); "
        "merged as asked: "
        "undo_cast_correction (`loci story undo`) takes it back"
    )


def _called_by_given_name(person: Person, other: Person) -> None:
    """Read as a given name the word `person` has after a title where `other` has it as a
    given name, a word the census holds far more as one than as a family name: a servant's
    "Mr. Edward" of Edward Rochester, no family name of its own."""
    titled = person.surnames | person.surnamish
    called = {w for w in titled & other.given if census.given_not_surname(w)}
    person.surnames -= called
    person.surnamish -= called
    person.given |= called


def _plain(entity: Entity, cases: Mapping[str, WordCase]) -> Entity:
    """The entity with its names as the cast reads them, without the common words around."""
    plain = [reduced(a, entity.mentions, cases) for a in entity.aliases]
    return replace(entity, aliases=list(dict.fromkeys(plain)))


def _maiden_and_married(mine: Person, theirs: Person) -> bool:
    """Whether two merged women are one woman's maiden name and her married name by title
    ("Nancy Lammeter" and "Mrs. Cass"): names of one person, whatever their family names."""
    if "m" in (mine.sex, theirs.sex) or "f" not in (mine.sex, theirs.sex):
        return False
    wives = [p for p in (mine, theirs) if True in p.married]
    if len(wives) != 1 or wives[0].given:
        return False
    return not sex_conflict(mine, theirs) and not _given_apart(mine, theirs)


def _why_two(mine: Person, theirs: Person) -> str:
    """What says two merged entities are two people, in words."""
    if sex_conflict(mine, theirs):
        return "a man and a woman"
    if mine.generations and theirs.generations and mine.generations != theirs.generations:
        numbered = (mine.generations | theirs.generations) & names.NUMBERS
        told = "numbered" if numbered else "of two generations,"
        return f"namesakes {told} {_listed(mine.generations)} and {_listed(theirs.generations)}"
    # A word the person is given by another name is no family name of theirs ("Grandma Ruth").
    a = (mine.surnames | mine.surnamish) - mine.given
    b = (theirs.surnames | theirs.surnamish) - theirs.given
    if a and b and not a & b:
        women = "m" not in (mine.sex, theirs.sex)
        maiden = ", as a woman's maiden and married names may be" if women else ""
        return f"two family names, {_listed(a)} and {_listed(b)}{maiden}"
    if _given_apart(mine, theirs):
        return f"two given names, {_listed(_spelt(mine))} and {_listed(_spelt(theirs))}"
    if (mine.titles - theirs.titles) and (theirs.titles - mine.titles):
        # "Mr. De Courcy" and "Sir Reginald": a son and his father, the baronet.
        return f"called {_listed(mine.titles - theirs.titles)} and {_listed(theirs.titles - mine.titles)}"
    return "their names do not fit together"


def _given_words(person: Person) -> set[str]:
    """The person's given names, and its single words the census lists as given names, but
    for its family's name ("Clay", of Mrs Clay, is no given name of hers)."""
    family = person.surnames | person.surnamish
    return person.given | {w for w in person.bare - family if census.is_given_name(w)}


def _spelt(person: Person) -> set[str]:
    """The person's given names to say, without an initial where a name is spelt out: "Susan",
    not "S or Susan" (Lady Susan signs "S. V.")."""
    given = _given_words(person)
    return {w for w in given if len(w.rstrip(".")) > 1} or given


def _given_apart(mine: Person, theirs: Person) -> bool:
    """Whether two people go by given names that are not one name ("Lily" and "Lila", twins);
    a word that is the other's family name is none ("Joyce" of Richard Joyce)."""
    first, second = _given_words(mine) - theirs.surnames, _given_words(theirs) - mine.surnames
    return bool(first and second) and not any(
        given_names.same_given(x, y) for x in first for y in second
    )


def _listed(words: set[str]) -> str:
    """Words of names as a name writes them: "Susan or Sue", "Daddy-Long-Legs"."""
    return " or ".join(sorted("-".join(p.capitalize() for p in w.split("-")) for w in words))


def held_form(entities: list[Entity], other: str) -> str:
    """`other` as a name the cast holds: itself, else without its article ("the Dutchman" is
    the cast's "Dutchman": names are kept without "the"), else the cast's with other quote
    marks (a keyboard's straight apostrophe for a book's curly one), else itself."""
    held = {names.key(a): a for e in entities for a in e.written}
    if names.key(other) in held:
        return other
    straight = {k.translate(STRAIGHT): a for k, a in held.items()}
    found = held.get(names.unarticled(other))
    return found or straight.get(names.key(other).translate(STRAIGHT), other)


#: Curly quote marks as a keyboard types them.
STRAIGHT = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def written_entity(entities: list[Entity], other: str, session: str) -> Entity:
    """The entity the story writes `other` for. A merge is kept under the name given and
    replayed by it (`corrections.replay`), so a name the story never writes (a misspelling,
    one word of a longer name) would be logged and change nothing: it is refused, with the
    story's names closest to it."""
    wanted = names.key(other)
    for entity in entities:
        if any(names.key(alias) == wanted for alias in [entity.name, *entity.written]):
            return entity
    raise never_written(entities, other, session, "a merge")


def inside_another(entities: list[Entity], entity: Entity, other: str) -> ConflictError | None:
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


def no_name_there(
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


def never_written(entities: list[Entity], other: str, session: str, what: str) -> NotFoundError:
    """The refusal of a correction naming something the story never writes, with the
    story's names closest to it: names it writes, never the one refused ("Henry Dashwood",
    listed only as written inside "Mr. Henry Dashwood")."""
    close = _closest_names(entities, other)
    hint = (
        f"; did you mean {' or '.join(repr(name) for name in close)}?"
        if close
        else f"; none of its names is close (story://{session}/characters, or loci story "
        f"characters {session} --all, lists them)"
    )
    if what != "keeping apart":
        hint += " To show a character by a name the story never writes, rename it."
    return NotFoundError(
        f"the story {session!r} never writes {fields.shown(other)} ({what} needs a name as "
        f"the story writes it){hint}",
        session_id=session,
        name=other,
    )


def _closest_names(entities: list[Entity], wanted: str) -> list[str]:
    """The story's names closest to `wanted`, written most like it, and first the entity whose
    names it fits ("Jory", for "Lady Jory")."""
    close = lookup.closest(entities, wanted)
    fitting = lookup.find(entities, wanted)
    if fitting is not None and fitting.name not in close:
        close.insert(0, fitting.name)
    return close


def checked(
    entities: list[Entity], entity: Entity, action: str, name: str, other: str, session: str
) -> str:
    """The name of `entity` the correction is kept under; refuses what cannot apply."""
    own = {names.key(alias) for alias in entity.aliases}
    holder = next(
        (e for e in entities if names.key(other) in {names.key(a) for a in e.aliases}), None
    )
    if action == "merge":
        target = written_entity(entities, other, session)
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
    elif action == "apart" and holder is not None and holder.id == entity.id:
        raise InvalidInputError(
            f"{other!r} is a name of {entity.name!r} itself: split it off to part them",
            field="other",
        )
    elif action == "kind" and other not in KINDS_SET:
        raise InvalidInputError(
            f"kind must be one of {', '.join(KINDS_SET)}, got {fields.shown(other)}",
            field="other",
        )
    return _kept_name(entity, name)


def apart_written(text: str, entities: list[Entity], other: str, session: str) -> None:
    """Refuse to keep apart a name no entity holds (only an epithet declined as an alias,
    "Captain", may be one) unless the story writes it."""
    if any(names.key(other) == names.key(a) for e in entities for a in e.aliases):
        return
    # Its words as looked up, each title's full stop optional: "old Mrs. Butterworth".
    words = r"\.?\s+".join(map(re.escape, names.unarticled(other).split()))
    if not re.search(rf"(?<![\w.]){words}(?!\w)", text, re.I):
        raise never_written(entities, other, session, "keeping apart")


def _kept_name(entity: Entity, name: str) -> str:
    """The name of the entity a correction is kept under: the one the writer gave, when the
    story writes it, else the entity's most used name."""
    stored = entity.written
    wanted = names.key(name)
    return next((alias for alias in stored if names.key(alias) == wanted), stored[0])


#: The most entities a report of names moved elsewhere lists.
MOVED_LISTED = 5


def moved_elsewhere(before: list[Entity], after: list[Entity], joined: set[int]) -> str | None:
    """The names a correction moved between entities it does not name, in words, if it moved
    any: a split lets go the evidence that kept names apart or together, and the cast is
    worked out again ("General Kirsanov", of the Kirsanov the writer split "Paul Petrovitch
    Kirsanov" off, then joined Arkady). `joined`: the entities (before) the correction itself
    puts together (a merge's two)."""
    owner = {names.key(a): e for e in before for a in e.written}
    said = []
    for entity in after:
        came: dict[int, tuple[Entity, list[str]]] = {}
        for alias in entity.written:
            was = owner.get(names.key(alias))
            if was is not None:
                came.setdefault(was.id, (was, []))[1].append(alias)
        if len(came) < 2 or set(came) <= joined:
            continue
        # Its home is the entity of its name, else the one that brought it most names.
        ranked = sorted(
            came.values(), key=lambda pair: (pair[0].name != entity.name, -len(pair[1]))
        )
        home = ranked[0][0]
        for was, moved in came.values():
            if was is not home and not ({was.id, home.id} <= joined):
                said.append(
                    f"{', '.join(map(repr, moved))} (of {was.name!r}) joined {entity.name!r}"
                )
    if not said:
        return None
    more = f"; and {len(said) - MOVED_LISTED} more" if len(said) > MOVED_LISTED else ""
    return (
        "the cast worked out again moved other names too: "
        + "; ".join(said[:MOVED_LISTED])
        + more
        + " (undo_cast_correction, `loci story undo`, takes it all back)"
    )

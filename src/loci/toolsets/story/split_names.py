"""Which names a split takes along with the one split off (its own forms), and which full
names it leaves behind that may be its too."""

from __future__ import annotations

from collections.abc import Sequence

from loci.toolsets.story import census, given_names, names
from loci.toolsets.story.entity import Entity


def along(entity: Entity, name: str, other: str) -> tuple[str, ...]:
    """The names a split of `other` off `entity` takes along: its own forms, whose given names
    are all forms of `other`'s and of no given name of the names left ("Dick" and "Dick
    Musgrove", splitting "Richard" off "Mr Musgrove", whose names left are Charles Musgrove's;
    "Jack" but not "John Barsad", splitting "John" off "Mr. Barsad"); never `name`, the one
    the writer keeps the entity by, nor the name it is shown by (a rename's), nor anything
    when `other` has no given name ("Mr. Ferrars"). A titled given name takes its full names
    along ("Sir Reginald De Courcy", splitting "Sir Reginald" off his son Reginald), and a full
    name its titled forms ("Miss Catherine Harrington", splitting "Catherine Harrington")."""
    mine = _given_of(other)
    rest = [a for a in entity.written if names.key(a) != names.key(other)]
    stays = {names.key(name), names.key(entity.name)}
    fits = {a for a in rest if mine and names.key(a) not in stays and _own_form(a, mine)}
    left = {w for a in rest if a not in fits for w in _given_of(a)}
    # A full name goes along only when the names left are someone of another given name ("Dick
    # Musgrove", from Charles Musgrove's entity); else it is theirs ("John Barsad" stays with
    # "Mr. Barsad" when "John" is split off).
    return tuple(
        a
        for a in rest
        if a in fits
        and (
            _fuller(a, other)
            or _titled(a, other)
            or (
                not any(_forms_of(x, left) for x in _given_of(a))
                and (left or not names.parse(a).surnames)
            )
        )
    )


def _fuller(name: str, other: str) -> bool:
    """Whether `name` is `other`, a title and a given name, with a family name after it ("Sir
    Reginald De Courcy" of "Sir Reginald"): his, whatever names of his given name stay."""
    return bool(names.parse(other).titles) and names.key(name).startswith(f"{names.key(other)} ")


def _titled(name: str, other: str) -> bool:
    """Whether `name` is `other` with a title before it ("Miss Catherine Harrington", splitting
    "Catherine Harrington" off the daughter named after her): the same person's."""
    mine, theirs = names.key(name), names.key(other)
    before = mine[: -len(theirs)].split() if mine.endswith(f" {theirs}") else []
    return bool(before) and all(names.is_title(word) for word in before)


def left_behind(entity: Entity, name: str, other: str, taken: Sequence[str]) -> str | None:
    """What a split of `other` off `entity` says of the full names of `other`'s given name it
    left with the entity because the names left give no given name to tell them from
    (`along`: "Solomon Macey" stays with "Mr. Macey" when "Solomon" is split off), if any."""
    mine = _given_of(other)
    gone = {names.key(a) for a in (other, *taken)}
    kept = [a for a in entity.written if names.key(a) not in gone]
    # The name split from stays with itself, which says nothing ("'Marie Bashkirtseff' stayed
    # with 'Marie Bashkirtseff'", when "Marion" was split off her).
    behind = [
        a
        for a in kept
        if names.parse(a).surnames and _own_form(a, mine) and names.key(a) != names.key(name)
    ]
    if not mine or not behind or any(_given_of(a) for a in kept if a not in behind):
        return None
    listed, many = ", ".join(repr(a) for a in behind), len(behind) > 1
    return (
        f"{listed} stayed with {name!r}, whose other names give no given name to tell "
        f"{'them' if many else 'it'} from; if {'they are' if many else 'it is'} {other!r}'s, "
        f"split {'them' if many else 'it'} off too"
    )


def _given_of(name: str) -> set[str]:
    parsed = names.parse(name)
    return set(parsed.given) | {w for w in parsed.bare if census.is_given_name(w)}


def _own_form(name: str, given: set[str]) -> bool:
    """Whether `name` has given names, all of them forms of `given` ("Dick Musgrove" of
    "richard")."""
    words = _given_of(name)
    return bool(words) and all(_forms_of(x, given) for x in words)


def _forms_of(word: str, given: set[str]) -> bool:
    return any(given_names.same_given(word, other, initials=False) for other in given)

"""Names a character goes by that the story writes only inside longer ones: a writer or an
agent asking for "Sawyer" means Tom Sawyer, though the story writes "Sawyer" only in "Tom
Sawyer". They are listed to find the character by; a correction names the story's own names
(`Entity.derived`, `Entity.written`).

- A titled name gives the name without its title: a full name always ("Fitzwilliam Darcy" in
  "Mr. Fitzwilliam Darcy"; not a wife's by her husband's, "Mrs. Robert Ferrars"), a single
  word when only this entity is called by it with a title ("Waldman" in "M. Waldman"), or a
  man and women are, for the man (`_owners`), never when two men are ("Tilney", of Mr.
  Tilney and Captain Tilney) nor when a name of another not called by it with a title holds
  the word ("Lynde" of Mrs. Lynde and Thomas Lynde).
- A character's given name and surname, written twice or more (with a title or without),
  give the surname, and the given name, each when no other entity's name holds it
  ("Sawyer", and "Burdon" of "Sir Thomas Burdon"; not "Rogers", Ben's and Sally's; "Tillie"
  of "Tillie Boulter", when no other Tillie is named).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from loci.toolsets.story import census, common_words, names
from loci.toolsets.story.entity import Entity

#: A full name gives its surname and given name as names of the character when written this
#: many times.
FULL_NAME_WRITTEN = 2


def add(found: list[Entity], written: Mapping[str, int]) -> None:
    """List with `found`'s entities the names they have that the story writes only inside
    longer ones (`written`: each name the story writes, with its mentions), each as an alias
    and as `Entity.derived`."""
    untitled: dict[str, list[tuple[Entity, str | None]]] = {}
    parts: dict[str, Counter[int]] = {}
    by_id = {entity.id: entity for entity in found}
    for entity in found:
        for alias in entity.aliases:
            rest = _untitled(alias)
            # "Mrs. Robert Ferrars" is Lucy's name; "Robert Ferrars" is her husband's.
            if rest is not None and not names.parse(alias).husband:
                untitled.setdefault(rest, []).append((entity, names.parse(alias).sex))
            # "Sir Thomas Burdon" gives "Burdon" (and "Thomas") as "Thomas Burdon" does;
            # "Mrs. Cecil Forrester", "Forrester" (Cecil is her husband).
            full = _given_and_surname(rest or alias) if entity.kind == "character" else None
            wifes = full is not None and bool(names.parse(alias).husband)
            for part in (full[1:] if wifes else full) if full else ():
                parts.setdefault(part, Counter())[entity.id] += written.get(alias, 0)
    held = {names.key(a) for e in found for a in e.aliases}
    carriers = _carriers(found)
    for rest, titled in untitled.items():
        whole = list({e.id: e for e, _ in titled}.values())  # a full name: each's
        # A single word is no one's when a name of another holds it too: "Cole" of "Mrs.
        # Cole" and "Sam Cole", her husband.
        if " " not in rest and not carriers.get(_word(rest), set()) <= {e.id for e in whole}:
            continue
        if names.key(rest) not in held:
            for entity in _owners(titled) if " " not in rest else whole:
                _list(entity, rest)
    for part, owners in parts.items():
        ((owner, times),) = owners.most_common(1)
        # One entity's, and no word of another's names ("Lynde" is Mrs. Lynde's too).
        if (
            names.key(part) not in held
            and times >= FULL_NAME_WRITTEN
            and carriers.get(_word(part)) == {owner}
        ):
            _list(by_id[owner], part)


def _list(entity: Entity, name: str) -> None:
    if names.key(name) not in {names.key(alias) for alias in entity.aliases}:
        entity.aliases.append(name)
        entity.derived.append(name)


def _carriers(found: Sequence[Entity]) -> dict[str, set[int]]:
    """Each word of the entities' names (lower case), with the ids of those it is a word of."""
    carriers: dict[str, set[int]] = {}
    for entity in found:
        for alias in entity.aliases:
            for word in alias.split():
                carriers.setdefault(_word(word), set()).add(entity.id)
    return carriers


def _word(word: str) -> str:
    """A word of a name as `_carriers` keeps it: lower case, without a dot ("K." is "k")."""
    return word.lower().rstrip(".")


def _owners(titled: Sequence[tuple[Entity, str | None]]) -> list[Entity]:
    """Who a single word left of titled names is: the one entity called by it, or of a man
    and women, the man ("Collins" is Mr. Collins's, not Mrs. Collins's: narration calls men
    by their surname alone, women seldom); none when that does not tell."""
    unique = {e.id: e for e, _ in titled}
    if len(unique) == 1:
        return list(unique.values())
    men = {e.id: e for e, sex in titled if sex == "m"}
    women = {e.id for e, sex in titled if sex == "f"}
    if len(men) == 1 and women | set(men) == set(unique):
        return list(men.values())
    return []


def _untitled(alias: str) -> str | None:
    """The name `alias` stands for without its title; None if it has none."""
    words = alias.split()
    if len(words) > 1 and names.is_title(words[0]):
        rest = " ".join(common_words.name_words(alias))
        if len(rest.rstrip(".")) <= 1:
            return None  # "Mrs. M." gives no "M": an initial alone is no one's name
        return None if rest.startswith("of ") else rest  # "Queen of the Mice": no "of the Mice"
    return None


def _given_and_surname(alias: str) -> tuple[str, str] | None:
    """The given name and surname of `alias`, if it is a given name and a surname ("Tom
    Sawyer")."""
    words = alias.split()
    parsed = names.parse(alias)
    given = census.is_given_name(words[0]) and not names.is_title(words[0])  # "Contessa"
    if len(words) == 2 and parsed.full and given:
        return (words[0], words[1]) if words[1][:1].isupper() else None
    return None

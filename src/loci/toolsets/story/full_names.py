"""Characters named in full: a given name and a family name ("Charles Hodges will plague me to
death", written once in *Northanger Abbey*), or a plain title and a family name ("Mr.
Kellogg"), say someone a reader lists, where another title and a name ("Captain Hunt") or a
word alone, written once, may be anything. The cast lists such a
character one mention sooner (`Entity.confirmed`).

Not when another character holds the given name and yet another the family name: "Lydia
Wickham", once in *Pride and Prejudice*, is Lydia married (or a mix of two people's names),
which the cast keeps apart from Lydia until it is written more.

A name written in full also tells apart characters who share a name: the cast shows "Charles
Musgrove", not "Charles", beside Charles Hayter (`tell_apart`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from loci.toolsets.story import census, names, titles
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.place_words import PLACE_HEADS


def mark(found: Sequence[Entity]) -> None:
    """Set `Entity.in_full` on each of `found`'s characters a name of theirs writes in full
    (`written_in_full`), unless characters the story names more often hold its given name and
    its family name (Lydia's "Lydia Wickham")."""
    characters = [e for e in found if e.kind == "character"]
    words_of = [(e.mentions, _words(e)) for e in characters]
    for entity in characters:
        others = [words for mentions, words in words_of if mentions > entity.mentions]
        for alias in (a for a in entity.written if written_in_full(a) or plainly_titled(a)):
            name = names.parse(alias)
            given = any(name.given & words for words in others)
            if not (given and any(name.surnames & words for words in others)):
                entity.in_full = True
                break


def tell_apart(found: Sequence[Entity], chosen: Collection[int]) -> None:
    """Show a character by a name of theirs written in full where the name they are written by
    most is a word other characters' names hold too ("Charles Musgrove", not "Charles", beside
    Charles Hayter; "John Thorpe", not "Thorpe", beside Isabella Thorpe), unless a correction
    chose the name (`chosen`: the ids of those entities)."""
    characters = [e for e in found if e.kind == "character"]
    words_of = {e.id: _words(e) for e in characters}
    holders = Counter(word for words in words_of.values() for word in words)
    for entity in characters:
        word = entity.name.lower()
        if entity.id in chosen or " " in entity.name:
            continue
        if holders[word] - (word in words_of[entity.id]) < 1:
            continue  # no other character's name holds it
        full = (a for a in entity.written if written_in_full(a) and word in a.lower().split())
        entity.name = next(full, entity.name)


def written_in_full(written: str) -> bool:
    """Whether `written` is a given name and a family name, and no title: a word the census
    holds far more as a given name than as a surname ("Sam Fletcher"; not "Holy Writ"),
    before one that heads no place's name ("Magdalen Bridge")."""
    words = written.split()
    if len(words) != 2:
        return False
    name = names.parse(written)
    return (
        name.full
        and not name.titles
        and census.given_not_surname(words[0].lower())
        and words[1].lower() not in PLACE_HEADS
    )


def plainly_titled(written: str) -> bool:
    """Whether `written` is a plain title and a family name the census lists ("Mr. Kellogg",
    "Mrs. Pendleton", each written once in *Daddy-Long-Legs*: a minister, a friend's mother):
    someone a reader lists, as a name in full is. Not another title ("Captain Hunt" may be a
    ship's), nor a word no family carries ("Mr. Philanthropist", a joke)."""
    words = written.split()
    if len(words) != 2 or words[0].rstrip(".").lower() not in titles.PLAIN:
        return False
    return census.is_surname(words[1])


def _words(entity: Entity) -> frozenset[str]:
    """The name words (lower case, no titles) of an entity's names."""
    return frozenset(word for alias in entity.aliases for word in names.parse(alias).words)

"""Names that are places by their words alone, whatever their mentions say (`kinds`), the
word alone of such a place's name, a person named for a saint, and a given name that is
someone's though a preposition of place stands before a few of its mentions."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

from loci.toolsets.story import census, names
from loci.toolsets.story.common_words import word_key
from loci.toolsets.story.place_words import PLACE_HEADS, PLACE_LEADS, WATERS

if TYPE_CHECKING:
    from loci.toolsets.story.kinds import Votes

#: A word in the possessive ("Cluny's" of "Cluny's Cage").
POSSESSIVE_WORD = re.compile(r"\w['\u2019]s$")


def named_for_a_place(written: str) -> bool:
    """Whether `written` is a name of two words or more opening with a word for a place
    ("Villa Lavenza", "Cape Horn"; "Island of Mull") or ending in one ("Gull Point", "Portland
    Street"), with no given name before it ("Lane" may end a person's name, "Lois Lane"; a
    river's "Water" never does, "Allan Water", nor a word no family carries, "Crystal Spring
    Farm"), or named for its owner ("Cluny's Cage"). Of
    a name with "of", the words before it say: "Toad of Toad Hall" is Toad, from his hall."""
    before_of = written.split(" of ")[0].split()
    if len(before_of) == 1 and " of " in written:
        return before_of[0].lower() in PLACE_HEADS | PLACE_LEADS
    words = before_of
    if len(words) < 2:
        return False
    if words[0].lower() in PLACE_LEADS or any(POSSESSIVE_WORD.search(w) for w in words[:-1]):
        return True
    head = words[-1].lower()
    if head not in PLACE_HEADS:
        return False
    # A head no family carries ends no one's name, whatever comes before it: "Crystal Spring
    # Farm", though "Crystal" is a given name.
    if head in WATERS or not census.is_surname(head):
        return True
    return not any(census.is_given_name(w) and not names.is_title(w) for w in words[:-1])


def is_a_place_by_name(written: str) -> bool:
    """Whether the name itself says it is a place, whatever its mentions say: a saint's ("St.
    Petersburgh") or one ending in a word for a place ("Brantwell House")."""
    parsed = names.parse(written)
    return not parsed.honorific and (parsed.saint or named_for_a_place(written))


def estate_word(written: str) -> str | None:
    """The word (lower case) of a place named by a word and a word for a place ("misselthwaite"
    of "Misselthwaite Manor", "earraid" of "Island Earraid", "mull" of "Isle of Mull"): the
    word alone names the place too, unless a titled character carries it ("Baskerville")."""
    words = written.split()
    if not is_a_place_by_name(written):
        return None
    if " of " in written:
        after = written.split(" of ", 1)[1].split()
        return word_key(after[0]) if len(after) == 1 else None
    if len(words) != 2:
        return None
    return word_key(words[1] if words[0].lower() in PLACE_LEADS else words[0])


def saints_namesake(written: str, family_names: Collection[str]) -> bool:
    """Whether a saint's name ends in a family name of the story's people ("St. John Rivers")."""
    surnames = names.parse(written).surnames
    return bool(surnames) and surnames <= set(family_names) and not named_for_a_place(written)


def someones_given_name(written: str, votes: Votes) -> bool:
    """Whether `written` is one word, a given name far more than a family name, that NER calls
    a person in most of its mentions and that a reader sees someone in (it speaks, acts, is
    called out or taken up by "he" or "she"): someone's, though a preposition of place stands
    before a few of its mentions ("went to Sarah", "a message from Sarah"). A village NER
    takes for a man is somewhere: "at Morton" is a family name too, and "to Clifton", a
    given name, stands after a word of place in most of its mentions."""
    if " " in written or not census.given_not_surname(word_key(written)):
        return False
    seldom_placed = 2 * votes.place_word < votes.mentions
    return 2 * votes.ner_person > votes.mentions and votes.cues > 0 and seldom_placed

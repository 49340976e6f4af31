"""Names that are places by their words alone, whatever their mentions say (`kinds`)."""

from __future__ import annotations

import re

from loci.toolsets.story import census, names
from loci.toolsets.story.place_words import PLACE_HEADS, PLACE_LEADS, WATERS

#: A word in the possessive ("Cluny's" of "Cluny's Cage").
POSSESSIVE_WORD = re.compile(r"\w['\u2019]s$")


def named_for_a_place(written: str) -> bool:
    """Whether `written` is a name of two words or more opening with a word for a place
    ("Villa Lavenza", "Cape Horn"; "Island of Mull") or ending in one ("Gull Point", "Portland
    Street"), with no given name before it ("Lane" may end a person's name, "Lois Lane"; a
    river's "Water" never does, "Allan Water"), or named for its owner ("Cluny's Cage"). Of
    a name with "of", the words before it say: "Toad of Toad Hall" is Toad, from his hall."""
    before_of = written.split(" of ")[0].split()
    if len(before_of) == 1 and " of " in written:
        return before_of[0].lower() in PLACE_HEADS | PLACE_LEADS
    words = before_of
    if len(words) < 2:
        return False
    if words[0].lower() in PLACE_LEADS or any(POSSESSIVE_WORD.search(w) for w in words[:-1]):
        return True
    if words[-1].lower() not in PLACE_HEADS:
        return False
    if words[-1].lower() in WATERS:
        return True
    return not any(census.is_given_name(w) and not names.is_title(w) for w in words[:-1])

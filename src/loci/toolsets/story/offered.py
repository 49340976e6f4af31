"""Each correction offered once: two kinds of evidence may propose one (a full name's company
and its title), and two may offer one name to two entities ("Miss Dashwood", answered to by
Elinor and keeping Marianne's company), which a writer accepting both would merge; and each
merge named so that, accepted, the entity is shown by the name a reader knows it by."""

from __future__ import annotations

from collections.abc import Sequence

from loci.toolsets.story import kin_words, names
from loci.toolsets.story.answered import written_after_the
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.models import CastSuggestion

#: A merge is named after the entity merged in when it is written this many times as often.
WRITTEN_MORE = 4


def offered_once(found: Sequence[CastSuggestion]) -> list[CastSuggestion]:
    """The suggestions, each correction once with the first reason given for it, in the
    order found (a merge either way round is one correction)."""
    first: dict[tuple[str, str, str], CastSuggestion] = {}
    for suggestion in found:
        name, other = suggestion.name, suggestion.other
        if suggestion.action == "merge":
            name, other = sorted((name, other))
        first.setdefault((suggestion.action, name, other), suggestion)
    return list(first.values())


def one_entity_each(found: Sequence[CastSuggestion]) -> list[CastSuggestion]:
    """The suggestions, each name merged into one entity only: the first offered."""
    merged: set[str] = set()
    kept = []
    for suggestion in found:
        guest = names.key(suggestion.other) if suggestion.action == "merge" else None
        if guest not in merged:
            kept.append(suggestion)
            merged |= {guest} if guest else set()
    return kept


def shown_first(
    suggestion: CastSuggestion, entities: Sequence[Entity], text: str
) -> CastSuggestion:
    """`suggestion`, a merge named the other way round when the entity merged in is written
    WRITTEN_MORE times as often, by a name of its own (no epithet, no child's word for a parent): a merge
    shows the entity by the name it keeps, and "merge 'Miss Hamilton' 'Mrs Smith'" showed
    Mrs Smith (64 mentions) as "Miss Hamilton" (4)."""
    by_name = {e.name: e for e in entities}
    host, guest = by_name.get(suggestion.name), by_name.get(suggestion.other)
    if suggestion.action != "merge" or host is None or guest is None:
        return suggestion
    far = guest.mentions >= WRITTEN_MORE * host.mentions
    if not far or kin_words.parent_word_sex(guest.name) is not None:
        return suggestion
    if written_after_the(text, guest):
        return suggestion
    return suggestion.model_copy(update={"name": guest.name, "other": host.name})

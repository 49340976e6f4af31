"""Each correction offered once: two kinds of evidence may propose one (a full name's company
and its title), and two may offer one name to two entities ("Miss Dashwood", answered to by
Elinor and keeping Marianne's company), which a writer accepting both would merge."""

from __future__ import annotations

from collections.abc import Sequence

from loci.toolsets.story import names
from loci.toolsets.story.models import CastSuggestion


def offered_once(found: Sequence[CastSuggestion]) -> list[CastSuggestion]:
    """The suggestions, each correction once with the first reason given for it, in the
    order found."""
    first: dict[tuple[str, str, str], CastSuggestion] = {}
    for suggestion in found:
        first.setdefault((suggestion.action, suggestion.name, suggestion.other), suggestion)
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

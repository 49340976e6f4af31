"""The sentence of evidence a suggestion shows: a whole sentence of the story naming the
entity (and the other it is suggested with, when one does), short enough to read whole."""

from __future__ import annotations

from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithet_company import named
from loci.toolsets.story.epithets import EVIDENCE_CHARS
from loci.toolsets.story.models import CastSuggestion


def evidence(entity: Entity, other: Entity | None = None) -> str:
    """A sentence of the story about `entity`: one naming `other` too when there is one,
    else one naming it."""
    from loci import sentences

    seen = [entity.first.excerpt, *(s.excerpt for s in entity.recent)]
    said = [
        " ".join(text[left:right].split()) for text in seen for left, right in sentences.spans(text)
    ]
    # Excerpts are windows of the text: their first and last sentences may be cut. A whole
    # sentence short enough to read whole comes first.
    said = sorted(said, key=lambda s: (not _whole(s), len(s) > EVIDENCE_CHARS))
    own = [s for s in said if any(named(a, s) for a in entity.aliases)] or said
    both = [s for s in own if other is not None and any(named(a, s) for a in other.aliases)]
    shown = (*(other.aliases if other is not None else ()), *entity.aliases)
    return sentences.clipped((both or own or [""])[0], EVIDENCE_CHARS, keep=shown)


def merge_suggestion(guest: Entity, host: Entity, reason: str, said: str = "") -> CastSuggestion:
    """The suggestion to merge `guest` into `host` for `reason`, with `said` as evidence, else
    a sentence naming them; it sets right the guest's mentions."""
    return CastSuggestion(
        action="merge",
        name=host.name,
        other=guest.name,
        mentions=guest.mentions,
        reason=reason,
        evidence=said or evidence(guest, host),
    )


#: What a whole sentence may start with beside a capital, and end with after its stop.
OPENERS, CLOSERS = "\"'\u201c\u2018([_", "\"'\u201d\u2019)]_*"


def _whole(sentence: str) -> bool:
    """Whether `sentence` starts as a sentence does and ends with a stop (not a window's cut)."""
    if not sentence or not (sentence[0].isupper() or sentence[0] in OPENERS):
        return False
    return sentence.rstrip(CLOSERS)[-1:] in (".", "!", "?", "\u2026")

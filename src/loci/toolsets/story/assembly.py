"""Assembling the context for the next turn of a story, within a token budget.

Room is kept for the writer's input and the model's answer; of the rest, the most recent text
comes first (about `recent_share` of it), then the facts about the characters and places in
play and the archived passages most relevant to the input. Every part is counted, and the
assembled text never exceeds the budget.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from loci import fields
from loci.errors import InvalidInputError
from loci.toolsets.story import store
from loci.toolsets.story.castview import CastView
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.lookup import query_entities
from loci.toolsets.story.models import ContextPart, StoryContext
from loci.toolsets.story.relevance import Scored, Weights, rank
from loci.toolsets.story.service import StoryService

MIN_MAX_TOKENS = 100
MAX_MAX_TOKENS = 1_000_000
ENTITIES_IN_PLAY = 8
MAX_ID = 2**63 - 1
FACTS_SHARE = 0.3
RECENT_HEADING = "## The story so far (most recent)\n\n"
MEMORY_HEADING = "## Earlier in the story\n\n"
FACTS_HEADING = "## Characters and places in play\n\n"


@dataclass
class Budget:
    """Tokens left to spend."""

    left: int

    def take(self, tokens: int) -> bool:
        """Spend `tokens` if there are enough left."""
        if tokens > self.left:
            return False
        self.left -= tokens
        return True


def assemble(
    service: StoryService, session_id: str, current_input: str, max_tokens: int | None = None
) -> StoryContext:
    """The context for `current_input`: facts, relevant earlier passages, recent text."""
    name = service.session_name(session_id)
    current_input = fields.content(
        current_input,
        service.limits.max_input_bytes,
        "current_input",
        setting="LOCI_STORY_MAX_INPUT_BYTES",
    )
    if max_tokens is not None:
        fields.bounded_int(max_tokens, MIN_MAX_TOKENS, MAX_MAX_TOKENS, "max_tokens")
    vector = service.embed_beside(current_input)
    with service.db.snapshot() as conn:
        found = store.session(conn, name)
        settings = found.settings
        limit = settings.max_tokens if max_tokens is None else max_tokens
        window = store.stream(conn, found.id, found.window_start)
        view = service.view(conn, found)
        chunk_spans = store.chunk_starts(conn, found.id)
    names = query_entities(service, view, current_input)
    count = service.counter.count
    available = _room(count(current_input), limit, settings.answer_reserve)
    recent_start, recent = _recent(service, found, window, int(available * settings.recent_share))
    if recent:
        with service.db.snapshot() as conn:
            recent = store.rendered(conn, found.id, (recent_start, None))
    recent_tokens = service.counted(RECENT_HEADING + recent) if recent else 0
    budget = Budget(available - recent_tokens)
    ranked = rank(
        service.matrix(found.id),
        service.query(found, current_input, names, vector),
        Weights.of(settings),
        service.lookups(view),
        keep=lambda p: p.end <= recent_start,
        half_life=settings.recency_half_life,
    )
    facts_budget = Budget(int(budget.left * FACTS_SHARE))
    in_query = frozenset().union(*(n.entities for n in names))
    chosen = _facts(_in_play(in_query, ranked, view), in_query, facts_budget, count)
    budget.left -= sum(c.part.tokens for c in chosen)
    chosen += _memories(service, ranked, chunk_spans, budget)
    text = _joined(chosen, recent)
    tokens = count(text)
    while tokens > available and chosen:
        chosen.pop()  # the last chosen is the least relevant
        text = _joined(chosen, recent)
        tokens = count(text)
    if tokens > available:  # only when the input leaves (almost) no room
        recent = ""
        text = _joined(chosen, recent)
        tokens = count(text)
    parts = [c.part for c in chosen]
    if recent:
        reason = "the latest text of the story, whole paragraphs"
        parts.insert(0, ContextPart(kind="recent", tokens=recent_tokens, reason=reason))
    return StoryContext(session_id=name, text=text, tokens=tokens, max_tokens=limit, parts=parts)


def _room(input_tokens: int, limit: int, answer_reserve: int) -> int:
    """The tokens left for context once the input and the answer have their room; an input
    that leaves none is refused, saying so (an empty context would look like a story with
    nothing to recall)."""
    available = limit - input_tokens - answer_reserve
    if available <= 0:
        raise InvalidInputError(
            f"current_input is {input_tokens} tokens; with {answer_reserve} kept for the "
            f"answer it leaves no room for context within max_tokens {limit}: shorten the "
            "input or raise max_tokens",
            field="current_input",
            input_tokens=input_tokens,
            max_tokens=limit,
            answer_reserve=answer_reserve,
        )
    return available


@dataclass(frozen=True)
class Chosen:
    """A piece of context: its text, where it goes, and why it was chosen."""

    text: str
    order: int
    part: ContextPart


def _recent(
    service: StoryService, found: store.Session, window: str, tokens: int
) -> tuple[int, str]:
    """The newest whole units of the window that fit in `tokens`, and where they start."""
    window_start = found.window_start
    units = service.window_units(found, window)
    spent = 0
    start = window_start + len(window)
    for unit in reversed(units):
        if spent + unit.tokens > tokens:
            break
        spent += unit.tokens
        start = unit.start
    return start, window[start - window_start :]


def _in_play(in_query: frozenset[int], ranked: list[Scored], view: CastView) -> list[Entity]:
    """The entities the input names, then those of the best passages, most mentioned first."""
    entities = {e.id: e for e in view.entities if e.id in in_query}
    chosen = list(entities.values())
    for scored in ranked[:3]:
        chosen.extend(
            view.by_id[view.entity_of[n]] for n in scored.passage.names if n in view.entity_of
        )
    unique = {e.id: e for e in chosen if e.kind != "unknown"}
    ordered = sorted(unique.values(), key=lambda e: (e.id not in in_query, -e.mentions))
    return ordered[:ENTITIES_IN_PLAY]


def _facts(
    in_play: list[Entity], in_query: frozenset[int], budget: Budget, count: Callable[[str], int]
) -> list[Chosen]:
    """A line for each entity in play: its names and the sentence that introduced it, or its
    names alone where the sentence does not fit. No entity takes the room of one the input
    names: when one of those fits in no form, the facts stop there."""
    found: list[Chosen] = []
    for entity in in_play:
        line = _fact_line(entity, budget, count)
        named = entity.id in in_query
        if line is None:
            if named:
                break
            continue
        text, tokens = line
        why = "named in the input" if named else "named in a relevant passage"
        part = ContextPart(kind="entity", tokens=tokens, reason=f"{entity.name}: {why}")
        found.append(Chosen(text, -1, part))
    return found


def _fact_line(
    entity: Entity, budget: Budget, count: Callable[[str], int]
) -> tuple[str, int] | None:
    """The longest of the entity's fact lines that fits in `budget` (taken from it), and its
    tokens."""
    also = [a for a in entity.aliases if a != entity.name][:4]
    names = f"- {entity.name} ({entity.kind}" + (f"; also {', '.join(also)})" if also else ")")
    for line in (f"{names}: {entity.first.excerpt}\n", f"{names}\n"):
        tokens = count(line)
        if budget.take(tokens):
            return line, tokens
    return None


def _memories(
    service: StoryService,
    ranked: list[Scored],
    chunk_spans: list[tuple[int, int]],
    budget: Budget,
) -> list[Chosen]:
    """The most relevant earlier passages that fit, best first, never overlapping."""
    found: list[Chosen] = []
    taken: list[tuple[int, int]] = []
    texts = {s.passage.id: s.text for s in ranked if s.text is not None}
    texts |= service.texts([s.passage.id for s in ranked if s.text is None])
    prompts = {s.passage.id for s in ranked if s.passage.prompt}
    shown = {
        i: (store.marked_prompt(text) if i in prompts else text.strip()) + "\n\n"
        for i, text in texts.items()
    }
    sizes = dict(zip(shown, service.counter.count_many(list(shown.values())), strict=True))
    for scored in ranked:
        p = scored.passage
        if p.id not in shown or any(s < p.end and p.start < e for s, e in taken):
            continue
        text, tokens = shown[p.id], sizes[p.id]
        if not budget.take(tokens):
            continue
        taken.append((p.start, p.end))
        at = bisect_right(chunk_spans, (p.start, MAX_ID)) - 1
        signals = ", ".join(f"{k} {v:.2f}" for k, v in scored.signals.items())
        part = ContextPart(
            kind="memory",
            tokens=tokens,
            reason=f"relevant to the input ({signals})",
            chunk_id=chunk_spans[at][1] if at >= 0 else None,
            score=round(scored.score, 4),
        )
        found.append(Chosen(text, p.start, part))
    return found


def _joined(chosen: list[Chosen], recent: str) -> str:
    """The sections in prompt order: facts, earlier passages in story order, recent text."""
    facts = [c.text for c in chosen if c.part.kind == "entity"]
    memories = [c.text for c in sorted(chosen, key=lambda c: c.order) if c.part.kind == "memory"]
    sections = []
    if facts:
        sections.append(FACTS_HEADING + "".join(facts))
    if memories:
        sections.append(MEMORY_HEADING + "".join(memories))
    if recent:
        sections.append(RECENT_HEADING + recent)
    return "\n".join(s.rstrip("\n") + "\n" for s in sections)

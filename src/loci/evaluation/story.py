"""`loci eval story`: plant facts in a novel, stream it through the story tools, ask for them.

A spec names a novel, its main characters with their aliases, its places, and invented facts
("needles") with a question each. The needles go in at evenly spaced paragraph breaks; the
novel streams through `continue_story` in interactions of about 400 tokens; then each question
goes through `get_story_context` and `search_story_memory`. A Project Gutenberg file is read
without its header and licence, as `loci story import` reads it. The baseline asks the same
questions of plain `recall` over the same archived chunks, with no entity or recency signal.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loci.app import App, build_app
from loci.embedding import Embedder
from loci.errors import InvalidInputError
from loci.memory.models import MemoryDraft
from loci.settings import Settings
from loci.story import assembly, lookup, manuscript, store
from loci.story.entities import PRONOUNS
from loci.story.graph import Entity
from loci.story.names import TITLES

SESSION = "eval"
BASELINE_NAMESPACE = "story-baseline"
SPURIOUS_TOP = 30
SEARCH_K = 5

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Spec:
    """A story evaluation spec."""

    novel: Path
    characters: list[dict[str, Any]]
    places: list[str]
    needles: list[dict[str, str]]


def load(path: Path) -> Spec:
    """The spec at `path` (the novel's path is relative to it)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Spec(
            novel=(path.parent / data["novel"]).resolve(),
            characters=list(data["characters"]),
            places=list(data["places"]),
            needles=list(data["needles"]),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InvalidInputError(f"{path}: not a story spec ({exc})", field="spec") from exc


def planted(text: str, needles: list[dict[str, str]]) -> str:
    """`text` with each needle's fact as a paragraph of its own, at evenly spaced breaks."""
    paragraphs = text.split("\n\n")
    step = len(paragraphs) / len(needles)
    for number in reversed(range(len(needles))):
        at = int((number + 0.5) * step)
        paragraphs.insert(at, needles[number]["fact"])
    return "\n\n".join(paragraphs)


def run_story(
    spec_path: Path, settings: Settings, embedder: Embedder, progress: Progress | None = None
) -> dict[str, Any]:
    """The report of `loci eval story`, the baseline beside it."""
    spec = load(spec_path)
    book = manuscript.without_gutenberg_licence(manuscript.read_text(spec.novel))
    text = planted(book, spec.needles)
    with tempfile.TemporaryDirectory(prefix="loci-eval-story-") as home:
        app = build_app(settings.model_copy(update={"home": Path(home)}), embedder)
        try:
            started = time.perf_counter()
            pieces = list(manuscript.interactions(text, app.story.counter))
            streamed = manuscript.stream_into(app.story, SESSION, pieces, progress)
            seconds = time.perf_counter() - started
            report = _needles(app, spec)
            report.update(_entities(app, spec, text))
            report.update(
                interactions=streamed.interactions,
                reliefs=streamed.reliefs,
                story_tokens=streamed.story_tokens,
                seconds=round(seconds, 1),
                tokens_per_second=round(streamed.story_tokens / seconds),
                baseline=_baseline(app, spec),
            )
            return report
        finally:
            app.close()


def _needles(app: App, spec: Spec) -> dict[str, Any]:
    in_context = in_search = 0
    context_tokens: list[int] = []
    for needle in spec.needles:
        fact = _squashed(needle["fact"])
        context = assembly.assemble(app.story, SESSION, needle["question"])
        context_tokens.append(context.tokens)
        in_context += fact in _squashed(context.text)
        hits = lookup.search(app.story, SESSION, needle["question"], max_results=SEARCH_K).hits
        in_search += any(fact in _squashed(h.chunk or h.passage) for h in hits)
    count = len(spec.needles)
    return {
        "needle_in_context": round(in_context / count, 3),
        f"needle_in_search@{SEARCH_K}": round(in_search / count, 3),
        "context_tokens_max": max(context_tokens),
    }


def _entities(app: App, spec: Spec, text: str) -> dict[str, Any]:
    with app.db.snapshot() as conn:
        session = store.session(conn, SESSION)
        graph = app.story.graph
        entities = graph.entities(conn, session.id)
        confirm = session.settings.confirm_after
        characters = [e for e in entities if e.kind == "character" and e.confirmed(confirm)]
        places = [e for e in entities if e.kind == "place" and e.confirmed(confirm)]
        resolved = {
            surface: graph.resolve(conn, session.id, surface)
            for c in spec.characters
            for surface in [c["name"], *c["aliases"]]
        }
    return {
        "character_recall": _recall(spec.characters, characters),
        "alias_accuracy": _alias_accuracy(spec.characters, resolved),
        "spurious_characters": _spurious(characters[:SPURIOUS_TOP], spec.places, text),
        "place_recall": round(
            sum(any(p in e.aliases for e in places) for p in spec.places) / len(spec.places), 3
        ),
        "characters_found": len(characters),
        "top_characters": [lookup.display_name(e) for e in characters[:SPURIOUS_TOP]],
    }


def _recall(listed: list[dict[str, Any]], found: list[Entity]) -> float:
    surfaces = {a for e in found for a in e.aliases}
    hits = sum(any(s in surfaces for s in [c["name"], *c["aliases"]]) for c in listed)
    return round(hits / len(listed), 3)


def _alias_accuracy(listed: list[dict[str, Any]], resolved: dict[str, Entity | None]) -> float:
    """Share of listed names that resolve to their character's entity: the one most of the
    character's names resolve to, provided no other character claims more of its names."""
    majority: dict[int, tuple[int, str]] = {}
    chosen: dict[str, int | None] = {}
    for character in listed:
        found = [resolved[s] for s in [character["name"], *character["aliases"]]]
        ids = [entity.id for entity in found if entity is not None]
        best = max(set(ids), key=ids.count) if ids else None
        chosen[character["name"]] = best
        if best is not None and ids.count(best) > majority.get(best, (0, ""))[0]:
            majority[best] = (ids.count(best), character["name"])
    right = total = 0
    for character in listed:
        best = chosen[character["name"]]
        owner = majority.get(best, (0, ""))[1] if best is not None else ""
        for surface in [character["name"], *character["aliases"]]:
            total += 1
            entity = resolved[surface]
            right += bool(entity and entity.id == best and owner == character["name"])
    return round(right / total, 3)


def _spurious(top: list[Entity], places: list[str], text: str) -> int:
    """How many of `top` are a listed place, a pronoun, a title alone, or a word the text
    mostly writes in lower case."""
    return sum(_is_spurious(lookup.display_name(e), places, text) for e in top)


def _is_spurious(name: str, places: list[str], text: str) -> bool:
    words = name.split()
    if name in places or name.lower() in PRONOUNS:
        return True
    if all(w.rstrip(".").lower() in TITLES for w in words):
        return True
    if len(words) == 1:
        lower = len(re.findall(rf"\b{re.escape(name.lower())}\b", text))
        upper = len(re.findall(rf"\b{re.escape(name)}\b", text))
        return lower > upper
    return False


def _baseline(app: App, spec: Spec) -> dict[str, Any]:
    """Plain recall over the same chunks (and the window as one more), no story signals."""
    with app.db.snapshot() as conn:
        session = store.session(conn, SESSION)
        chunks = [c.content for c in store.chunks(conn, session.id)]
        chunks.append(store.stream(conn, session.id, session.window_start))
    for at in range(0, len(chunks), 50):
        app.memory.remember_batch(
            [MemoryDraft(content=c, namespace=BASELINE_NAMESPACE) for c in chunks[at : at + 50]]
        )
    found = 0
    for needle in spec.needles:
        hits = app.memory.recall(needle["question"], limit=SEARCH_K, namespace=BASELINE_NAMESPACE)
        found += any(_squashed(needle["fact"]) in _squashed(h.content) for h in hits.memories)
    return {f"needle_in_search@{SEARCH_K}": round(found / len(spec.needles), 3)}


def _squashed(text: str) -> str:
    return " ".join(text.split())

"""`loci eval story`: plant facts in a novel, stream it through the story tools, ask for them.

A spec names a novel, its main characters with their aliases, its places, names that are not
people, and invented facts ("needles") with a question each. The needles go in at evenly
spaced paragraph breaks; the novel streams through `continue_story` in interactions of about
400 tokens; then each question goes through `get_story_context` and `search_story_memory`. A
Project Gutenberg file is read as `loci story import` reads it: without its licence, front and
back matter. The baseline asks the same questions of plain `recall` over the same archived
chunks, with no entity or recency signal. The cast is measured by `loci.evaluation.cast`,
as the engine found it and again after accepting the suggestions it ranks first (at most
`SUGGESTIONS_TAKEN`, as a writer running `loci story suggestions --accept-all` would).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from loci.app import App, build_app
from loci.engine.embedding import Embedder
from loci.errors import InvalidInputError
from loci.evaluation import cast
from loci.settings import Settings
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.story import assembly, lookup, manuscript, store
from loci.toolsets.story.curation import accept
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.suggestions import suggest

SESSION = "eval"
BASELINE_NAMESPACE = "story-baseline"
SPURIOUS_TOP = 30
SEARCH_K = 5
#: The suggestions accepted for `cohesion_suggested`.
SUGGESTIONS_TAKEN = 10

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Spec:
    """A story evaluation spec."""

    novel: Path
    characters: list[dict[str, Any]]
    places: list[str]
    needles: list[dict[str, str]]
    not_people: list[str]


class _Character(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt key is refused, not ignored

    name: str = Field(min_length=1)
    aliases: list[str] = []


class _Needle(BaseModel):
    model_config = ConfigDict(extra="forbid")

    fact: str = Field(min_length=1)
    question: str = Field(min_length=1)
    answer: str = ""


class _SpecFile(BaseModel):
    """A spec as written: `novel` (a path relative to the spec) and `characters` are needed;
    `places`, `not_people` and `needles` may be left out; any other key is refused."""

    model_config = ConfigDict(extra="forbid")

    novel: str = Field(min_length=1)
    characters: list[_Character] = Field(min_length=1)
    places: list[str] = []
    not_people: list[str] = []
    needles: list[_Needle] = []


def load(path: Path) -> Spec:
    """The spec at `path` (the novel's path is relative to it)."""
    try:
        data = _SpecFile.model_validate_json(path.read_bytes())
    except OSError as exc:
        raise InvalidInputError(f"{path}: cannot read the spec ({exc})", field="spec") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the file"
        raise InvalidInputError(
            f"{path}: not a story spec ({where}: {first['msg']}; see docs/story.md)", field="spec"
        ) from exc
    novel = (path.parent / data.novel).resolve()
    if not novel.is_file():
        raise InvalidInputError(f"{path}: its novel {novel} is not a file", field="spec")
    return Spec(
        novel=novel,
        characters=[c.model_dump() for c in data.characters],
        places=data.places,
        needles=[n.model_dump() for n in data.needles],
        not_people=data.not_people,
    )


def planted(text: str, needles: list[dict[str, str]]) -> str:
    """`text` with each needle's fact as a paragraph of its own, at evenly spaced breaks."""
    if not needles:
        return text
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
    book = manuscript.book(manuscript.read_text(spec.novel))
    text = planted(book, spec.needles)
    with tempfile.TemporaryDirectory(prefix="loci-eval-story-") as home:
        app = build_app(settings.model_copy(update={"home": Path(home)}), embedder)
        try:
            started = time.perf_counter()
            pieces = list(manuscript.interactions(text, app.story.counter))
            streamed = manuscript.stream_into(app.story, SESSION, pieces, progress)
            seconds = time.perf_counter() - started
            report = _needles(app, spec)
            report.update(_entities(app, spec))
            report.update(_suggested(app, spec))
            # Of the text the cast read: a planted fact may write a name the novel does not.
            report["cohesion_ceiling"] = cast.ceiling(spec.characters, text)
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
    """Each planted fact asked for: found in the assembled context, in a top hit (its chunk or
    its `passage`), and in a top hit's `passage` (the answer an agent reads). A spec
    without needles has none of these figures."""
    if not spec.needles:
        return {}
    in_context = in_search = in_passage = 0
    context_tokens: list[int] = []
    for needle in spec.needles:
        fact = _squashed(needle["fact"])
        context = assembly.assemble(app.story, SESSION, needle["question"])
        context_tokens.append(context.tokens)
        in_context += fact in _squashed(context.text)
        found = lookup.search(
            app.story, SESSION, needle["question"], max_results=SEARCH_K, include_chunk=True
        )
        # A passage may begin in the chunk before its hit's: the answer is in the hit then.
        in_search += any(
            fact in _squashed(h.chunk or "") or fact in _squashed(h.passage) for h in found.hits
        )
        in_passage += any(fact in _squashed(h.passage) for h in found.hits)
    count = len(spec.needles)
    return {
        "needle_in_context": round(in_context / count, 3),
        f"needle_in_search@{SEARCH_K}": round(in_search / count, 3),
        f"passage@{SEARCH_K}": round(in_passage / count, 3),
        "context_tokens_max": max(context_tokens),
    }


def _entities(app: App, spec: Spec) -> dict[str, Any]:
    with app.db.snapshot() as conn:
        session = store.session(conn, SESSION)
        entities = app.story.graph.entities(conn, session.id)
        confirm = session.settings.confirm_after
    characters = [e for e in entities if e.kind == "character" and e.confirmed(confirm)]
    places = [e for e in entities if e.kind == "place" and e.confirmed(confirm)]
    shown = [_shown(e, e in characters) for e in entities]
    top = [_shown(e, True) for e in characters[:SPURIOUS_TOP]]
    conflated = cast.conflated(spec.characters, shown)
    spurious = cast.spurious(top, [*spec.not_people, *spec.places])
    return {
        "character_recall": cast.recall(spec.characters, shown),
        "cohesion": cast.cohesion(spec.characters, shown),
        "conflated": len(conflated),
        "spurious": len(spurious),
        "place_recall": _share(
            sum(any(p in e.aliases for e in places) for p in spec.places), len(spec.places)
        ),
        "characters_found": len(characters),
        "top_characters": [t.name for t in top],
        "conflated_entities": conflated,
        "spurious_entities": spurious,
    }


def _suggested(app: App, spec: Spec) -> dict[str, Any]:
    """The cast's cohesion after accepting the suggestions the engine ranks first."""
    found = suggest(app.story, SESSION, SUGGESTIONS_TAKEN)
    done = accept(app.story, SESSION, found.suggestions)
    after = _entities(app, spec)
    return {
        "suggestions": len(found.suggestions),
        "suggestions_refused": len(done.refused),
        "cohesion_suggested": after["cohesion"],
        "conflated_suggested": after["conflated"],
    }


def _shown(entity: Entity, character: bool) -> cast.CastEntity:
    return cast.CastEntity(entity.name, tuple(entity.aliases), character)


def _baseline(app: App, spec: Spec) -> dict[str, Any]:
    """Plain recall over the same chunks (and the window as one more), no story signals;
    nothing to ask (and nothing embedded) for a spec without needles."""
    if not spec.needles:
        return {}
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


def _share(part: int, whole: int) -> float | None:
    """`part` of `whole`, rounded; None when there is nothing to count."""
    return round(part / whole, 3) if whole else None


def _squashed(text: str) -> str:
    return " ".join(text.split())

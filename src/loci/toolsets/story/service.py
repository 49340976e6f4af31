"""The story service: continue a story, relieve its window, search it, and report on it."""

from __future__ import annotations

import re
import threading
from collections.abc import Collection, Sequence
from concurrent.futures import Future
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from loci import fields
from loci.engine.search.engine import MemoryEngine, vector_bytes
from loci.errors import InvalidInputError
from loci.storage.databases.db import Connection, Database
from loci.storage.indexes.keywords.fts_terms import Tokenizer
from loci.token_count import TokenCounter
from loci.toolsets.story import ingest, names, relief, store, threads, valve
from loci.toolsets.story.castview import CastView
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.generations import read_generations
from loci.toolsets.story.graph import EntityGraph, Recorded
from loci.toolsets.story.letters import CLOSING_CHARS
from loci.toolsets.story.mentions import Extractor
from loci.toolsets.story.models import (
    ContextStats,
    ContinueResult,
    PlotThread,
    PlotThreads,
    Relief,
    StoryLimits,
    StorySession,
    StorySessionList,
)
from loci.toolsets.story.passage_keywords import FtsPassageKeywords, PassageKeywords
from loci.toolsets.story.relevance import KEYWORD_CANDIDATES, Named, PassageMatrix, Query
from loci.toolsets.story.rereading import read_before_found, read_epithets
from loci.toolsets.story.stated import read_stated

SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{1,128}\Z")
RELIEF_HISTORY = 10


class StoryService:
    """Story sessions over the shared store, embedder and token counter."""

    def __init__(
        self,
        db: Database,
        engine: MemoryEngine,
        counter: TokenCounter,
        extractor: Extractor,
        graph: EntityGraph,
        limits: StoryLimits,
        passage_keywords: PassageKeywords | None = None,
    ) -> None:
        """Stories kept in `db`, embedded by `engine`; `passage_keywords` indexes their
        passages' words (FTS5 unless given)."""
        self.db = db
        self.passage_keywords = passage_keywords or FtsPassageKeywords()
        # Splits a search's sentences into the keyword index's terms (`answers`).
        self.tokenizer = Tokenizer()
        self.engine = engine
        self.counter = counter
        self.extractor = extractor
        self.graph = graph
        self.limits = limits
        self._matrices: dict[int, PassageMatrix] = {}
        self._matrix_lock = threading.Lock()
        self._views: dict[int, tuple[str, CastView]] = {}
        self._window_units: dict[int, tuple[tuple[str, int], list[valve.Unit]]] = {}
        self._count_cached = lru_cache(maxsize=8)(counter.count)

    def continue_story(
        self,
        session_id: str,
        user_input: str,
        assistant_response: str,
        settings: dict[str, object] | None = None,
    ) -> ContinueResult:
        """Append an interaction to the story (starting the session if new), and relieve the
        window when it passes its threshold. `settings` changes the session's settings first
        (the fields given)."""
        name = self.session_name(session_id)
        texts = ingest.interaction(user_input, assistant_response, self.limits.max_input_bytes)
        with self.db.locked() as conn:
            key = store.session_key(conn, name)
            known, before = self.graph.surfaces(conn, key), store.tail(conn, key, CLOSING_CHARS)
        pieces = ingest.read(
            texts, self.counter, self.extractor, (known, before), self.engine.embed
        )
        with self.db.write() as conn:
            found = store.session_or_new(conn, name, self.limits.defaults)
            if settings:
                found.settings = found.settings.changed(settings)
            found.interactions += 1
            new_names = [self._append(conn, found, piece) for piece in pieces]
            archived = relief.relieve_if_needed(conn, found, self.counter)
            if any(new_names) or archived:
                # Who is who changes with new names; with more text, the evidence grows: it
                # is worked out again at each relief too.
                self.graph.resolve(conn, found.id)
            store.save_session(conn, found)
        return ContinueResult(
            session_id=name,
            interaction=found.interactions,
            window_tokens=found.window_tokens,
            max_tokens=found.settings.max_tokens,
            pressure=round(found.window_tokens / found.settings.max_tokens, 4),
            relieved=bool(archived),
            archived=archived,
            story_tokens=found.stream_tokens,
        )

    def stats(self, session_id: str) -> ContextStats:
        """Pressure, tokens, relief history and memory counts of a session."""
        name = self.session_name(session_id)
        with self.db.snapshot() as conn:
            found = store.session(conn, name)
            counts = store.counts(conn, found.id)
            history = store.reliefs(conn, found.id, RELIEF_HISTORY)
            entities = self.entities(conn, found)
            by_status = store.thread_counts(conn, found.id)
        confirmed = [e for e in entities if e.confirmed(found.settings.confirm_after)]
        return ContextStats(
            session_id=name,
            pressure=round(found.window_tokens / found.settings.max_tokens, 4),
            window_tokens=found.window_tokens,
            max_tokens=found.settings.max_tokens,
            story_tokens=found.stream_tokens,
            interactions=found.interactions,
            archived_chunks=counts["chunks"],
            archived_tokens=counts["chunk_tokens"],
            passages=counts["passages"],
            characters=sum(1 for e in confirmed if e.kind == "character"),
            places=sum(1 for e in confirmed if e.kind == "place"),
            active_threads=by_status.get("active", 0),
            resolved_threads=by_status.get("resolved", 0),
            reliefs=counts["reliefs"],
            relief_history=[
                Relief(
                    at=at,
                    interaction=interaction,
                    tokens_before=before,
                    tokens_after=after,
                    chunks=chunks,
                    milliseconds=round(seconds * 1000, 2),
                )
                for at, interaction, before, after, chunks, seconds in history
            ],
            settings=found.settings,
        )

    def plot_threads(self, session_id: str) -> PlotThreads:
        """The session's active and resolved plot threads and their connections."""
        name = self.session_name(session_id)
        with self.db.snapshot() as conn:
            found = store.session(conn, name)
            view = self.view(conn, found)
            listed = threads.listing(conn, found.id, name)
        # A detected thread whose person the cast found to be a place or a thing is no plot
        # thread: the text named no one there.
        not_people = {
            names.key(alias)
            for entity in view.entities
            if entity.kind in ("place", "other")
            for alias in entity.aliases
        }
        return threads.credited(listed, lambda person: names.key(person) not in not_people)

    def update_thread(
        self,
        session_id: str,
        name: str,
        action: str,
        note: str = "",
        entities: list[str] | None = None,
    ) -> PlotThread:
        """Open, advance, resolve or reopen a plot thread at the story's current position."""
        session = self.session_name(session_id)
        with self.db.write() as conn:
            found = store.session(conn, session)
            return threads.update(conn, found.id, found.stream_tokens, name, action, note, entities)

    def sessions(self) -> StorySessionList:
        """Every story session, most recently updated first."""
        with self.db.locked() as conn:
            found = store.sessions(conn)
        return StorySessionList(
            sessions=[
                StorySession(
                    session_id=s.name,
                    interactions=s.interactions,
                    story_tokens=s.stream_tokens,
                    window_tokens=s.window_tokens,
                    created_at=s.created_at,
                    updated_at=s.updated_at,
                )
                for s in found
            ]
        )

    def resolve_cast(self, session_id: str) -> int:
        """Count the names found in later text in the text read before them, read the
        epithets that name one character ("the doctor" of the only doctor), and work out
        who is who again from all the evidence (continue_story works it out when new names
        arrive and at each relief; an import does all this at its end). Returns how many
        earlier mentions were counted."""
        name = self.session_name(session_id)
        with self.db.write() as conn:
            found = store.session(conn, name)
            counted = read_before_found(conn, self.graph, self.extractor, found)
            self.graph.resolve(conn, found.id)
            # The readings below need the cast worked out: whose names a family has, who
            # carries each title.
            text = store.rendered(conn, found.id, prompts="omit")
            if read_generations(conn, self.graph, found, text):
                self.graph.resolve(conn, found.id)
            if read := read_epithets(conn, self.graph, self.extractor, found, text):
                counted += read
                self.graph.resolve(conn, found.id)
            # Names the story says are one person's, among the cast worked out so far.
            counted += read_stated(conn, self.graph, self.extractor, found, text)
            self.graph.resolve(conn, found.id)
            store.save_session(conn, found)
        return counted

    def exists(self, session_id: str) -> bool:
        """Whether the session has been started."""
        name = self.session_name(session_id)
        with self.db.locked() as conn:
            return store.session_key(conn, name) >= 0

    def window(self, session_id: str) -> str:
        """The session's window: its most recent text, not yet archived (prompts marked)."""
        name = self.session_name(session_id)
        with self.db.snapshot() as conn:
            found = store.session(conn, name)
            return store.rendered(conn, found.id, (found.window_start, None))

    def export(self, session_id: str, prompts: store.PromptsShown = "mark") -> str:
        """The whole story as written, every piece in order; the writer's prompts marked as
        prompts, or left out."""
        name = self.session_name(session_id)
        if prompts not in ("mark", "omit"):
            raise InvalidInputError(
                f"prompts must be 'mark' or 'omit', got {fields.shown(prompts)}", field="prompts"
            )
        with self.db.snapshot() as conn:
            found = store.session(conn, name)
            return store.rendered(conn, found.id, prompts=prompts)

    def embed_beside(self, text: str) -> Future[npt.NDArray[np.float32]]:
        """Start embedding `text` in the worker thread (the model releases the GIL, so the
        caller's database work runs meanwhile)."""
        return self.engine.beside(lambda: self.engine.embed([text])[0])

    def query(
        self,
        found: store.Session,
        text: str,
        names: tuple[Named, ...],
        vector: Future[npt.NDArray[np.float32]],
    ) -> Query:
        """The relevance query for `text`: its names, its keyword matches (looked up while
        its vector, from `embed_beside`, is being computed) and its vector."""
        with self.db.locked() as conn:
            keyword_ids = self.passage_keywords.matches(conn, found.id, text, KEYWORD_CANDIDATES)
        return Query(vector.result(), names, found.stream_tokens, keyword_ids)

    def entities(self, conn: Connection, found: store.Session) -> list[Entity]:
        """The session's entities, read again only when the session has changed since."""
        return self.view(conn, found).entities

    def view(self, conn: Connection, found: store.Session) -> CastView:
        """The session's cast, read again only when the session has changed since."""
        cached = self._views.get(found.id)
        if cached is not None and cached[0] == found.updated_at:
            return cached[1]
        view = CastView(self.graph.entities(conn, found.id), self.graph.surfaces(conn, found.id))
        self._views[found.id] = (found.updated_at, view)
        return view

    def window_units(self, found: store.Session, window: str) -> list[valve.Unit]:
        """The window's units (of at most a chunk), cut again only when it has changed."""
        key = (found.updated_at, found.window_start)
        cached = self._window_units.get(found.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        units = valve.units(window, found.window_start, self.counter, found.settings.chunk_tokens)
        self._window_units[found.id] = (key, units)
        return units

    def counted(self, text: str) -> int:
        """The tokens of `text`, remembered for the last few texts counted (the recent part
        of a context is the same from one question to the next)."""
        return self._count_cached(text)

    def matrix(self, session: int) -> PassageMatrix:
        """The session's passages and vectors, brought up to date with the store."""
        with self._matrix_lock:
            matrix = self._matrices.setdefault(
                session, PassageMatrix(self.engine.embedder.identity.dimensions)
            )
            with self.db.locked() as conn:
                matrix.extend(store.passages_after(conn, session, matrix.last_id))
            return matrix

    def lookups(self, view: CastView) -> SessionLookups:
        """What ranking reads of a session whose cast is `view`."""
        return SessionLookups(self, view)

    def texts(self, passage_ids: Sequence[int]) -> dict[int, str]:
        """The text of each passage (as indexed for keyword search)."""
        with self.db.locked() as conn:
            return self.passage_keywords.texts(conn, passage_ids)

    def session_name(self, session_id: str) -> str:
        """A valid session id: 1-128 letters, digits, '_' or '-' (never a path)."""
        if not isinstance(session_id, str) or not SESSION_ID.match(session_id):
            raise InvalidInputError(
                "session_id must be 1-128 letters, digits, '_' or '-', got "
                f"{fields.shown(session_id)}",
                field="session_id",
            )
        return session_id

    def _append(self, conn: Connection, found: store.Session, piece: ingest.Piece) -> bool:
        """Append a piece: its text, its passages, and (for story text, not the writer's
        prompt) what it says of the cast and its plot threads. Returns whether it brought a
        name the story had not met."""
        token_start = found.stream_tokens
        start = store.add_piece(conn, found, piece.role, piece.text, piece.tokens)
        prompt = piece.role == store.PROMPT
        recorded = (
            Recorded([], False)
            if prompt
            else self.graph.record(
                conn, found.id, piece.observed(token_start), piece.words, piece.pairs
            )
        )
        if not prompt:
            threads.detect(conn, found.id, piece.text, token_start, piece.mentions)
        for (s, e), vector in zip(piece.spans, piece.vectors, strict=True):
            inside = [
                name
                for name, m in zip(recorded.names, piece.mentions, strict=False)
                if s <= m.start < e
            ]
            passage_id = store.add_passage(
                conn,
                found.id,
                (start + s, start + e),
                piece.position(token_start, s),
                inside,
                vector_bytes(np.asarray(vector, np.float32)),
                prompt=prompt,
            )
            self.passage_keywords.add(conn, passage_id, piece.text[s:e])
        return recorded.new


class SessionLookups:
    """What ranking reads of one session: its cast (as of `view`) and passage texts."""

    def __init__(self, service: StoryService, view: CastView) -> None:
        self.service = service
        self.view = view

    def entity_of(self, name: int) -> int:
        """The entity a name belongs to (the name itself when the cast does not know it)."""
        return self.view.entity_of.get(name, name)

    def related(self, ids: Collection[int]) -> set[tuple[int, int]]:
        """Pairs (a, b), a < b, of related entities among those touching `ids`."""
        return self.view.related(ids, self._read_related)

    def _read_related(self, ids: Collection[int]) -> set[tuple[int, int]]:
        with self.service.db.locked() as conn:
            found = self.service.graph.related(conn, self.view.entities, ids)
        return {(a, b) for a, b, _, _ in found}

    def texts(self, passage_ids: Sequence[int]) -> dict[int, str]:
        """The text of each passage."""
        return self.service.texts(passage_ids)

"""Run a LoCoMo evaluation: each conversation into a fresh store, every question through recall."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from loci.app import App, build_app
from loci.engine.embedding import Embedder
from loci.engine.search import pipeline
from loci.errors import InvalidInputError
from loci.evaluation import locomo
from loci.evaluation.metrics import Scoreboard
from loci.settings import Settings
from loci.toolsets.memory.conversations.importer import memory_text
from loci.toolsets.memory.conversations.messages import ChatMessage
from loci.toolsets.memory.models import MemoryDraft

NAMESPACE = "conversation"
#: The modes every run reports: the default ranking and its two parts on their own.
MODES: dict[str, float | None] = {"default": None, "keyword": 0.0, "vector": 1.0}
#: Turns asked for per question: enough to rank sessions too (5 distinct ones for recall@5).
SESSION_DEPTH = 50

Progress = Callable[[str, int, int], None]


#: How a conversation is stored: as a conversation (`turns`), every turn as an independent
#: note with its date in metadata (`notes`), or even sessions as a conversation and odd ones
#: as notes (`mixed`).
STORES = ("turns", "notes", "mixed")


@dataclass(frozen=True)
class EvalOptions:
    """What to evaluate and how."""

    ks: tuple[int, ...] = (5, 10)
    conversations: Sequence[str] | None = None  # sample ids; None means all
    store: str = "turns"


def run_locomo(
    path: Path,
    settings: Settings,
    embedder: Embedder,
    options: EvalOptions,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The report of `loci eval locomo`: the default mode's figures, with `baselines` beside."""
    started = time.perf_counter()
    conversations = _selected(locomo.load(path), options.conversations)
    if options.store not in STORES:
        raise InvalidInputError(
            f"store must be one of {', '.join(STORES)}, got {options.store!r}", field="store"
        )
    boards = {mode: Scoreboard(ks=options.ks) for mode in MODES}
    odd = {mode: Scoreboard(ks=options.ks) for mode in MODES}
    depth = max(options.ks)
    for number, conversation in enumerate(conversations, start=1):
        if progress is not None:
            progress(conversation.sample_id, number, len(conversations))
        _evaluate(conversation, settings, embedder, Boards(boards, odd, depth), options.store)
    report = boards["default"].report()
    report["baselines"] = {mode: boards[mode].report() for mode in MODES if mode != "default"}
    report["store"] = options.store
    # Questions answered in odd sessions alone: the notes of a `mixed` store.
    report["odd_sessions"] = {mode: odd[mode].report() for mode in MODES}
    report["questions"] = boards["default"].questions
    report["skipped"] = sum(c.skipped for c in conversations)
    report["conversations"] = [c.sample_id for c in conversations]
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


@dataclass(frozen=True)
class Boards:
    """Scoreboards by mode: all questions, and those answered in odd sessions alone."""

    all: dict[str, Scoreboard]
    odd: dict[str, Scoreboard]
    depth: int


def _evaluate(
    conversation: locomo.Conversation,
    settings: Settings,
    embedder: Embedder,
    boards: Boards,
    store: str,
) -> None:
    with tempfile.TemporaryDirectory(prefix="loci-eval-") as home, _empty_store(settings) as url:
        fresh = {"home": Path(home), "database_url": None if url is None else SecretStr(url)}
        app = build_app(settings.model_copy(update=fresh), embedder=embedder)
        try:
            _store(app, conversation, store)
            for question in conversation.questions:
                in_odd = all(_odd_session(conversation, turn) for turn in question.evidence)
                # Embedded once for the six searches of the question below.
                ahead = app.memory.embed_query(question.text, namespace=NAMESPACE)
                for mode, alpha in MODES.items():
                    # Turns as a user asking for `depth` results gets them; sessions ranked
                    # from a longer list of the same search.
                    retrieved, deeper = (
                        _message_ids(app, question.text, limit, alpha, ahead)
                        for limit in (boards.depth, SESSION_DEPTH)
                    )
                    for board in (boards.all, boards.odd) if in_odd else (boards.all,):
                        board[mode].add(
                            question.category,
                            question.evidence,
                            retrieved,
                            conversation.session_of,
                            deeper,
                        )
        finally:
            app.close()


def _store(app: App, conversation: locomo.Conversation, store: str) -> None:
    """Store the conversation's turns as the `store` mode says."""
    as_notes = [
        message
        for message in conversation.messages
        if store == "notes" or (store == "mixed" and _odd_session(conversation, message.message_id))
    ]
    noted = {id(message) for message in as_notes}
    turns = [message for message in conversation.messages if id(message) not in noted]
    if turns:
        app.conversations.remember_conversation(
            turns, NAMESPACE, conversation_id=conversation.sample_id
        )
    if as_notes:
        app.memory.remember_all([_note(message) for message in as_notes])


def _note(message: ChatMessage) -> MemoryDraft:
    """A turn as an independent note: its text, its date and id in metadata only."""
    metadata = {"date": message.timestamp, "message_id": message.message_id}
    return MemoryDraft(memory_text(message), NAMESPACE, metadata=metadata)


def _odd_session(conversation: locomo.Conversation, message_id: str | None) -> bool:
    session = conversation.session_of(message_id or "")
    return session is not None and int(session.removeprefix("session_")) % 2 == 1


def _message_ids(
    app: App, query: str, limit: int, alpha: float | None, ahead: pipeline.Ahead
) -> list[str]:
    found = app.memory.recall(
        query, limit=limit, namespace=NAMESPACE, hybrid_alpha=alpha, ahead=ahead
    )
    return [str(hit.metadata.get("message_id")) for hit in found.memories]


def _selected(
    conversations: list[locomo.Conversation], wanted: Sequence[str] | None
) -> list[locomo.Conversation]:
    if not wanted:
        return conversations
    known = {c.sample_id for c in conversations}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise InvalidInputError(
            f"no conversation {', '.join(unknown)} in the file (it has {', '.join(sorted(known))})",
            conversations=unknown,
        )
    return [c for c in conversations if c.sample_id in set(wanted)]


@contextmanager
def _empty_store(settings: Settings) -> Iterator[str | None]:
    """Each conversation starts from an empty store: a data folder of its own, and on
    PostgreSQL a schema of its own too, dropped afterwards."""
    if settings.database_url is None:
        yield None
        return
    from loci.storage.databases.postgres import require_driver

    require_driver()
    from loci.storage.databases.postgres.scratch import scratch_schema

    with scratch_schema(settings.database_url.get_secret_value(), "loci_eval") as url:
        yield url

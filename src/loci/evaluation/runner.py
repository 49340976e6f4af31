"""Run a LoCoMo evaluation: each conversation into a fresh store, every question through recall."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loci.app import App, build_app
from loci.embedding import Embedder
from loci.errors import InvalidInputError
from loci.evaluation import locomo
from loci.evaluation.metrics import Scoreboard
from loci.settings import Settings

NAMESPACE = "conversation"
#: The modes every run reports: the default ranking and its two parts on their own.
MODES: dict[str, float | None] = {"default": None, "keyword": 0.0, "vector": 1.0}
#: Turns asked for per question: enough to rank sessions too (5 distinct ones for recall@5).
SESSION_DEPTH = 50

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class EvalOptions:
    """What to evaluate and how."""

    ks: tuple[int, ...] = (5, 10)
    conversations: Sequence[str] | None = None  # sample ids; None means all


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
    boards = {mode: Scoreboard(ks=options.ks) for mode in MODES}
    depth = max(options.ks)
    for number, conversation in enumerate(conversations, start=1):
        if progress is not None:
            progress(conversation.sample_id, number, len(conversations))
        _evaluate(conversation, settings, embedder, boards, depth)
    report = boards["default"].report()
    report["baselines"] = {mode: boards[mode].report() for mode in MODES if mode != "default"}
    report["questions"] = boards["default"].questions
    report["skipped"] = sum(c.skipped for c in conversations)
    report["conversations"] = [c.sample_id for c in conversations]
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


def _evaluate(
    conversation: locomo.Conversation,
    settings: Settings,
    embedder: Embedder,
    boards: dict[str, Scoreboard],
    depth: int,
) -> None:
    with tempfile.TemporaryDirectory(prefix="loci-eval-") as home:
        app = build_app(settings.model_copy(update={"home": Path(home)}), embedder=embedder)
        try:
            app.conversations.remember_conversation(
                conversation.messages, NAMESPACE, conversation_id=conversation.sample_id
            )
            for question in conversation.questions:
                for mode, alpha in MODES.items():
                    # Turns as a user asking for `depth` results gets them; sessions ranked
                    # from a longer list of the same search.
                    retrieved, deeper = (
                        _message_ids(app, question.text, limit, alpha)
                        for limit in (depth, SESSION_DEPTH)
                    )
                    boards[mode].add(
                        question.category,
                        question.evidence,
                        retrieved,
                        conversation.session_of,
                        deeper,
                    )
        finally:
            app.close()


def _message_ids(app: App, query: str, limit: int, alpha: float | None) -> list[str]:
    found = app.memory.recall(query, limit=limit, namespace=NAMESPACE, hybrid_alpha=alpha)
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

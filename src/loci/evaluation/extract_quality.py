"""`loci eval extract`: how well `extract` finds the turns worth remembering in LoCoMo.

Each session's turns go through `extract` as one text ("Speaker: text" per line, a shared
photo's caption after the text, as `import-chat` stores it). An extracted item counts for the
turn it came from; the gold is the turns the annotators cite as evidence for the session's
observations. The baseline keeps every turn. Each session is extracted into a namespace of
its own in a fresh store per conversation, so near-duplicate skipping across sessions does not
count against recall.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loci.engine.embedding import Embedder
from loci.errors import InvalidInputError
from loci.evaluation.locomo import SESSION_KEY, normalise_evidence
from loci.settings import Settings

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Session:
    """One session's lines (as extract reads them), their turn ids, and the gold turns."""

    name: str
    lines: list[str]
    turn_ids: list[str]
    gold: frozenset[str]


@dataclass
class Tally:
    """Counts of turns kept and cited."""

    kept_and_cited: int = 0
    kept: int = 0
    cited: int = 0
    per_type: dict[str, int] = field(default_factory=dict)

    def figures(self) -> dict[str, float]:
        """Precision, recall and F1."""
        precision = self.kept_and_cited / self.kept if self.kept else 0.0
        recall = self.kept_and_cited / self.cited if self.cited else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {"precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3)}


def load_sessions(path: Path) -> list[tuple[str, list[Session]]]:
    """(sample id, sessions) of each conversation of a LoCoMo file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"cannot read LoCoMo file {path}: {exc}", path=str(path)) from exc
    if not isinstance(data, list) or not data:
        raise InvalidInputError(f"{path} must hold a list of LoCoMo samples", path=str(path))
    return [(str(s.get("sample_id", n)), _sessions(s)) for n, s in enumerate(data)]


def run_extract(
    path: Path, settings: Settings, embedder: Embedder, progress: Progress | None = None
) -> dict[str, Any]:
    """Precision, recall and F1 of extract and of the every-turn baseline."""
    from loci.app import build_app

    conversations = load_sessions(path)
    ours, every_turn = Tally(), Tally()
    started = time.perf_counter()
    for number, (sample_id, sessions) in enumerate(conversations, start=1):
        if progress is not None:
            progress(sample_id, number, len(conversations))
        with tempfile.TemporaryDirectory(prefix="loci-eval-") as home:
            app = build_app(settings.model_copy(update={"home": Path(home)}), embedder=embedder)
            try:
                for session in sessions:
                    found = app.extraction.extract("\n".join(session.lines), session.name)
                    kept = {session.turn_ids[item.line - 1] for item in found.extracted}
                    for item in found.extracted:
                        ours.per_type[item.type] = ours.per_type.get(item.type, 0) + 1
                    _count(ours, kept, session.gold)
                    _count(every_turn, set(session.turn_ids), session.gold)
            finally:
                app.close()
    return {
        **ours.figures(),
        "turns_kept": ours.kept,
        "turns_cited": ours.cited,
        "items_per_type": dict(sorted(ours.per_type.items())),
        "baseline_every_turn": every_turn.figures(),
        "conversations": len(conversations),
        "seconds": round(time.perf_counter() - started, 1),
    }


def _count(tally: Tally, kept: set[str], gold: frozenset[str]) -> None:
    tally.kept += len(kept)
    tally.cited += len(gold)
    tally.kept_and_cited += len(kept & gold)


def _sessions(sample: Any) -> list[Session]:
    conversation = sample.get("conversation") if isinstance(sample, dict) else None
    if not isinstance(conversation, dict):
        raise InvalidInputError("a LoCoMo sample has no 'conversation' object")
    observations = sample.get("observation") or {}
    found = []
    for key, turns in conversation.items():
        match = SESSION_KEY.match(key)
        if not match or not isinstance(turns, list) or not turns:
            continue
        lines = [_line(turn) for turn in turns]
        ids = [str(turn.get("dia_id", "")) for turn in turns]
        cited = _cited(observations.get(f"{key}_observation") or {})
        found.append(Session(key.replace("_", "-"), lines, ids, frozenset(cited & set(ids))))
    return sorted(found, key=lambda s: int(s.name.split("-")[1]))


def _line(turn: dict[str, Any]) -> str:
    text = " ".join(str(turn.get("text", "")).split())
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text = f"{text} [shares a photo: {caption.strip()}]"
    return f"{turn.get('speaker', 'Someone')}: {text}"


def _cited(observation: dict[str, Any]) -> set[str]:
    cited: set[str] = set()
    for facts in observation.values():
        for fact in facts if isinstance(facts, list) else []:
            evidence = fact[1] if isinstance(fact, list) and len(fact) > 1 else []
            for raw in evidence if isinstance(evidence, list) else [evidence]:
                cited.update(normalise_evidence(str(raw)))
    return cited

"""`loci eval facts`: facts that change, measured on a set of scenarios.

Each scenario's statements are remembered in date order (their dates as `valid_from`), each
scenario in a namespace of its own, then its questions are asked: a "now" question must find
the expected statement first among the scenario's, an "as of" question too with `as_of`. The
conflicts flagged at write are compared with the set's pairs. The whole is run twice: with the
default `on_conflict` ("flag") and with "supersede", where a statement closed by a successor
it is not paired with in the set counts as wrongly closed.

The set's format: ``{"scenarios": [{"id", "statements": [{"key", "date", "text"}],
"conflicts": [[key, key]], "questions": [{"q", "kind": "now" | "as_of", "as_of"?, "expect":
key, "not": [keys]}]}]}``. Figures are given for the whole set and for each group of
scenarios, named by the letters their ids start with (a set written in rounds can keep
the round it tuned on apart from the one that checks it).
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loci.engine.embedding import Embedder
from loci.errors import InvalidInputError
from loci.settings import Settings

#: Reports which scenario is being run (its id, its number, how many there are).
Progress = Callable[[str, int, int], None]


@dataclass
class Tally:
    """Counts of one run, over some scenarios."""

    now: list[bool] = field(default_factory=list)
    as_of: list[bool] = field(default_factory=list)
    flagged: int = 0
    flagged_right: int = 0
    gold: int = 0
    statements: int = 0
    wrongly_closed: int = 0

    def add(self, other: Tally) -> None:
        """Add `other`'s counts to these."""
        self.now += other.now
        self.as_of += other.as_of
        for name in ("flagged", "flagged_right", "gold", "statements", "wrongly_closed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def load_set(path: Path) -> list[dict[str, Any]]:
    """The scenarios of the set at `path`, checked enough to run."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"cannot read the facts set {path}: {exc}", path=str(path)) from exc
    scenarios = data.get("scenarios") if isinstance(data, dict) else None
    if not isinstance(scenarios, list) or not scenarios:
        raise InvalidInputError(f"{path} must hold {{'scenarios': [...]}}", path=str(path))
    for number, scenario in enumerate(scenarios):
        if not isinstance(scenario, dict) or not {"id", "statements"} <= set(scenario):
            raise InvalidInputError(
                f"scenario {number} of {path} needs an id and statements", path=str(path)
            )
    return scenarios


def run_facts(
    path: Path, settings: Settings, embedder: Embedder, progress: Progress | None = None
) -> dict[str, Any]:
    """The figures of the set at `path`, with `flag` and with `supersede`."""
    scenarios = load_set(path)
    started = time.perf_counter()
    report: dict[str, Any] = {}
    for mode in ("flag", "supersede"):
        groups = _run(scenarios, mode, settings, embedder, progress)
        overall = Tally()
        for tally in groups.values():
            overall.add(tally)
        report[mode] = {
            "all": _figures(overall, mode),
            "groups": {name: _figures(tally, mode) for name, tally in sorted(groups.items())},
        }
    report["scenarios"] = len(scenarios)
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


def _run(
    scenarios: list[dict[str, Any]],
    mode: str,
    settings: Settings,
    embedder: Embedder,
    progress: Progress | None,
) -> dict[str, Tally]:
    from loci.app import build_app

    groups: dict[str, Tally] = {}
    with tempfile.TemporaryDirectory(prefix="loci-eval-facts-") as home:
        app = build_app(settings.model_copy(update={"home": Path(home)}), embedder=embedder)
        try:
            for number, scenario in enumerate(scenarios, start=1):
                if progress is not None:
                    progress(f"{mode} {scenario['id']}", number, len(scenarios))
                group = re.match(r"[A-Za-z]*", str(scenario["id"]))
                name = (group[0] if group else "") or "-"
                groups.setdefault(name, Tally()).add(_scenario(app, scenario, mode))
        finally:
            app.close()
    return groups


def _scenario(app: Any, scenario: dict[str, Any], mode: str) -> Tally:
    from loci.toolsets.memory.models import MemoryDraft

    tally = Tally()
    namespace = "facts-" + re.sub(r"[^A-Za-z0-9_.-]", "-", str(scenario["id"]))[:100]
    key_of: dict[str, str] = {}
    flagged: set[frozenset[str]] = set()
    statements = sorted(scenario["statements"], key=lambda s: str(s["date"]))
    for statement in statements:
        draft = MemoryDraft(statement["text"], namespace, valid_from=str(statement["date"]))
        written = app.facts.remember(draft, mode)
        key_of[written.id] = statement["key"]
        flagged |= {frozenset((statement["key"], key_of[c.id])) for c in written.conflicts}
    gold = {frozenset(pair) for pair in scenario.get("conflicts", [])}
    tally.flagged, tally.flagged_right, tally.gold = len(flagged), len(flagged & gold), len(gold)
    tally.statements = len(statements)
    if mode == "supersede":
        tally.wrongly_closed = _wrongly_closed(app, key_of, gold)
    for question in scenario.get("questions", []):
        as_of = question.get("as_of") if question.get("kind") == "as_of" else None
        found = app.memory.recall(
            question["q"], limit=10, namespace=namespace, as_of=as_of, record_access=False
        )
        first = next((key_of[m.id] for m in found.memories if m.id in key_of), None)
        (tally.as_of if as_of is not None else tally.now).append(first == question["expect"])
    return tally


def _wrongly_closed(app: Any, key_of: dict[str, str], gold: set[frozenset[str]]) -> int:
    """Statements closed by a successor the set does not pair them with."""
    wrong = 0
    for memory_id, key in key_of.items():
        memory = app.memory.get(memory_id)
        successor = key_of.get(memory.superseded_by or "")
        if memory.valid_until is not None and frozenset((key, successor)) not in gold:
            wrong += 1
    return wrong


def _figures(tally: Tally, mode: str) -> dict[str, Any]:
    def share(part: int, whole: int) -> float | None:
        return round(part / whole, 3) if whole else None

    figures: dict[str, Any] = {
        "now@1": share(sum(tally.now), len(tally.now)),
        "as_of@1": share(sum(tally.as_of), len(tally.as_of)),
        "questions": len(tally.now) + len(tally.as_of),
        "conflict_precision": share(tally.flagged_right, tally.flagged),
        "conflict_recall": share(tally.flagged_right, tally.gold),
        "flagged": tally.flagged,
        "gold_pairs": tally.gold,
    }
    if mode == "supersede":
        figures["wrongly_closed"] = tally.wrongly_closed
        figures["wrongly_closed_share"] = share(tally.wrongly_closed, tally.statements)
    return figures

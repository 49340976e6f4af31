"""Which parts of a workflow context matter: CRITICAL, IMPORTANT, USEFUL or EPHEMERAL.

Rules, first match wins for each key (a dotted path for nested keys):

1. explicit marks: keys pinned with `workflow_mark_critical`, and `metadata.priorities`
   (`{"dotted.key": "CRITICAL" | "IMPORTANT" | "USEFUL" | "EPHEMERAL"}`);
2. the key's name: goals, decisions, constraints, requirements are CRITICAL; plans, steps,
   progress, reasoning are IMPORTANT; analysis, notes, examples, references are USEFUL;
   timestamps, debug output, logs, traces, raw tool output, caches are EPHEMERAL;
3. the value's shape: a timestamp is EPHEMERAL, log-like text is EPHEMERAL, long text or a long
   list is USEFUL;
4. otherwise the tier of the enclosing key (IMPORTANT at the top).

Objects are classified key by key, so `plan.debug_log` can be EPHEMERAL inside an IMPORTANT
plan; a CRITICAL (or EPHEMERAL) object's keys share its tier unless one is marked otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from loci.errors import InvalidInputError


class Tier(StrEnum):
    """How much a part of the context matters, most first."""

    CRITICAL = "CRITICAL"
    IMPORTANT = "IMPORTANT"
    USEFUL = "USEFUL"
    EPHEMERAL = "EPHEMERAL"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Share of the token budget each tier may use.
BUDGET_SHARES: Mapping[Tier, float] = {
    Tier.CRITICAL: 0.30,
    Tier.IMPORTANT: 0.40,
    Tier.USEFUL: 0.20,
    Tier.EPHEMERAL: 0.10,
}

_NAME_RULES: tuple[tuple[Tier, frozenset[str]], ...] = (
    (
        Tier.EPHEMERAL,
        _words(
            """timestamp timestamps time created updated modified debug log logs trace traces
            stack stacktrace traceback raw stdout stderr output outputs tool_output cache cached
            tmp temp scratch elapsed duration latency timing timings heartbeat request_id
            response_raw verbose dump"""
        ),
    ),
    (
        Tier.CRITICAL,
        _words(
            """goal goals objective objectives mission task tasks requirement requirements
            constraint constraints decision decisions acceptance criteria must invariants
            user_request request intent deadline deliverable deliverables scope decision_log
            decisions_log"""
        ),
    ),
    (
        Tier.IMPORTANT,
        _words(
            """plan plans step steps next progress status state reasoning rationale approach
            architecture design todo todos summary findings risks assumptions questions blockers
            milestone milestones current phase result results conclusion"""
        ),
    ),
    (
        Tier.USEFUL,
        _words(
            """analysis notes note examples example details detail references reference research
            observations history files snippets documentation docs alternatives ideas background
            links sources comments explanation context"""
        ),
    ),
)
_NAMES: Mapping[Tier, frozenset[str]] = dict(_NAME_RULES)
#: Words that make anything they qualify throwaway.
_THROWAWAY = _words("raw debug tmp temp scratch verbose")
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_TIMESTAMP = re.compile(
    r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$"
)
_LOG_LINE = re.compile(
    r"^\s*(\[?\d{4}-\d{2}-\d{2}|\[?\d{2}:\d{2}:\d{2}|(DEBUG|INFO|WARN|WARNING|ERROR|TRACE)\b)"
)
LONG_TEXT_CHARS = 2000
LONG_LIST_ITEMS = 50


@dataclass(frozen=True)
class Classified:
    """The tier of one key (a dotted path) and why."""

    path: str
    tier: Tier
    reason: str


def classify(
    context: Mapping[str, Any], marks: Mapping[str, Tier] | None = None
) -> dict[str, Classified]:
    """The tier of every key, top-level and nested, by dotted path."""
    found: dict[str, Classified] = {}
    _walk(context, "", None, marks or {}, found)
    return found


def has_path(context: Mapping[str, Any], dotted: str) -> bool:
    """Whether `context` holds the key at the dotted path (`plan.steps`)."""
    node: Any = context
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def tier_of(path: str, classified: Mapping[str, Classified]) -> Tier:
    """The tier that governs `path`: its own, or its nearest classified ancestor's."""
    while path:
        if path in classified:
            return classified[path].tier
        path = path.rpartition(".")[0]
    return Tier.IMPORTANT


def _walk(
    node: Mapping[str, Any],
    prefix: str,
    parent: Tier | None,
    marks: Mapping[str, Tier],
    found: dict[str, Classified],
) -> None:
    for key, value in node.items():
        path = f"{prefix}{key}"
        tier, reason = _decide(path, str(key), value, parent, marks)
        found[path] = Classified(path, tier, reason)
        # Inside a CRITICAL or EPHEMERAL key every child shares its fate (kept whole, dropped
        # whole) unless one is marked, so only look further where it can change something.
        if isinstance(value, Mapping) and (
            tier in (Tier.IMPORTANT, Tier.USEFUL) or any(m.startswith(f"{path}.") for m in marks)
        ):
            _walk(value, f"{path}.", tier, marks, found)


def _decide(
    path: str, key: str, value: Any, parent: Tier | None, marks: Mapping[str, Tier]
) -> tuple[Tier, str]:
    if path in marks:
        return marks[path], "marked"
    if parent is Tier.CRITICAL:
        return Tier.CRITICAL, "inside a critical key"
    by_name = _by_name(key)
    if by_name is not None:
        return by_name, "key name"
    by_shape = _by_shape(value)
    if by_shape is not None:
        return by_shape, "value shape"
    return (parent or Tier.IMPORTANT), "inherited" if parent else "default"


@lru_cache(maxsize=4096)
def _by_name(key: str) -> Tier | None:
    """A throwaway qualifier ("raw_results"), else the whole name, else its head (last) word,
    else any word: "error_log" is a log, "user_goal" a goal, "goal_timestamp" a timestamp."""
    words = [w.lower() for w in _WORD.findall(key)]
    if not words:
        return None
    if any(word in _THROWAWAY for word in words):  # "raw_results", "debug_notes"
        return Tier.EPHEMERAL
    for candidate in ("_".join(words), words[-1]):
        for tier, names in _NAME_RULES:
            if candidate in names:
                return tier
    for tier in (Tier.CRITICAL, Tier.EPHEMERAL, Tier.IMPORTANT, Tier.USEFUL):
        if any(word in _NAMES[tier] for word in words):
            return tier
    return None


def _by_shape(value: Any) -> Tier | None:
    if isinstance(value, str):
        if _TIMESTAMP.match(value.strip()):
            return Tier.EPHEMERAL
        lines = value.splitlines()
        if len(lines) >= 5 and sum(bool(_LOG_LINE.match(line)) for line in lines) >= len(lines) / 2:
            return Tier.EPHEMERAL
        if len(value) > LONG_TEXT_CHARS:
            return Tier.USEFUL
    if isinstance(value, list) and len(value) > LONG_LIST_ITEMS:
        return Tier.USEFUL
    return None


def marks_of(pinned: list[str], metadata: dict[str, Any]) -> dict[str, Tier]:
    """The explicit marks of a save: the session's pinned keys, then the save's priorities."""
    return dict.fromkeys(pinned, Tier.CRITICAL) | priorities(metadata)


def priorities(metadata: dict[str, Any]) -> dict[str, Tier]:
    """Tiers a save's metadata asks for (`priorities`: key -> tier name)."""
    marks = metadata.get("priorities", {})
    if not isinstance(marks, dict):
        raise InvalidInputError("metadata.priorities must map keys to tiers", field="metadata")
    try:
        return {str(key): Tier(str(value).upper()) for key, value in marks.items()}
    except ValueError:
        tiers = ", ".join(t.value for t in Tier)
        raise InvalidInputError(
            f"metadata.priorities values must be one of {tiers}", field="metadata"
        ) from None

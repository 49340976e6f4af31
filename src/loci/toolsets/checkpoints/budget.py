"""Fit a context into its token budget: drop EPHEMERAL, shorten USEFUL, then IMPORTANT.

CRITICAL parts are never touched. Shortening is extractive: text keeps whole sentences, chosen
by a simple importance score and kept in their original order; lists keep whole items from
both ends; nothing is rewritten or invented. Tokens are estimated as UTF-8 bytes / 4 of the
JSON, which is close to cl100k for English prose and JSON and costs nothing to compute.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from loci.sentences import split as split_sentences
from loci.toolsets.checkpoints.classify import BUDGET_SHARES, Classified, Tier, tier_of

BYTES_PER_TOKEN = 4
EMPTY: tuple[Any, ...] = ("", [], {})
_SIGNAL = re.compile(
    r"\b(must|should|never|always|because|decided|decision|require[sd]?|important|error|fix(ed)?|"
    r"goal|todo|next|blocked|fail(s|ed)?)\b",
    re.IGNORECASE,
)


@dataclass
class Shortened:
    """A part of the context that was cut down."""

    path: str
    tier: str
    tokens_before: int
    tokens_after: int


@dataclass
class BudgetReport:
    """What fitting the context into its budget did."""

    budget_tokens: int
    tokens_before: int
    tokens_after: int
    applied: bool = False
    over_budget: bool = False
    critical_over_budget: bool = False
    dropped: list[str] = field(default_factory=list)
    shortened: list[Shortened] = field(default_factory=list)


def estimate_tokens(value: Any) -> int:
    """Tokens of a JSON value, estimated from its compact UTF-8 size."""
    return math.ceil(len(_compact(value).encode("utf-8")) / BYTES_PER_TOKEN)


def fit(
    context: dict[str, Any],
    classified: Mapping[str, Classified],
    budget: int,
    size_bytes: int | None = None,
) -> tuple[dict[str, Any], BudgetReport]:
    """`context` within `budget` tokens if it can be done without touching CRITICAL parts
    (`size_bytes`: the compact JSON size, when the caller already knows it).

    When the CRITICAL parts alone exceed the budget, nothing is dropped or shortened: the
    context is kept whole and the report says so. Every part removed is listed in `dropped`.
    """
    before = (
        estimate_tokens(context) if size_bytes is None else math.ceil(size_bytes / BYTES_PER_TOKEN)
    )
    report = BudgetReport(budget_tokens=budget, tokens_before=before, tokens_after=before)
    if before <= budget:
        return context, report
    units = _units(context, classified)
    critical = sum(estimate_tokens(_get(context, p)) for p, tier in units if tier is Tier.CRITICAL)
    if critical > budget:  # cutting the rest could not bring it within budget: keep it all
        report.over_budget = report.critical_over_budget = True
        return context, report
    work: dict[str, Any] = json.loads(_compact(context))  # a copy the caller's object never sees
    report.applied = True
    for path, tier in units:
        if tier is Tier.EPHEMERAL:
            _delete(work, path)
            report.dropped.append(".".join(path))
    # USEFUL gives way first, down to the room the others leave but not below its own share;
    # then IMPORTANT, as far as needed; then USEFUL again if CRITICAL alone fills the budget.
    useful_share = int(budget * BUDGET_SHARES[Tier.USEFUL])
    for tier, floor in ((Tier.USEFUL, useful_share), (Tier.IMPORTANT, 0), (Tier.USEFUL, 0)):
        over = estimate_tokens(work) - budget
        if over <= 0:
            break
        members = [path for path, t in units if t is tier and _exists(work, path)]
        sizes = {tuple(p): estimate_tokens(_get(work, p)) for p in members}
        total = sum(sizes.values())
        target = max(total - over, min(total, floor))
        _shrink(work, members, sizes, total, target, tier, report)
    report.tokens_after = estimate_tokens(work)
    report.over_budget = report.tokens_after > budget
    return work, report


def _shrink(
    work: dict[str, Any],
    members: list[list[str]],
    sizes: Mapping[tuple[str, ...], int],
    total: int,
    target: int,
    tier: Tier,
    report: BudgetReport,
) -> None:
    if total <= target or total == 0:
        return
    for path in members:
        size = sizes[tuple(path)]
        allowed = size * target // total
        if allowed >= size:
            continue
        smaller = shorten(_get(work, path), allowed)
        if _emptied(smaller, _get(work, path)):  # nothing whole fits: remove it, not a shell
            _delete(work, path)
            report.dropped.append(".".join(path))
            continue
        _set(work, path, smaller)
        report.shortened.append(
            Shortened(".".join(path), tier.value, size, estimate_tokens(smaller))
        )


def shorten(value: Any, tokens: int) -> Any:
    """`value` cut to about `tokens` by removing whole sentences, items or entries."""
    if isinstance(value, str):
        return extract_sentences(value, tokens * BYTES_PER_TOKEN)
    if isinstance(value, list):
        return _shorten_list(value, tokens)
    if isinstance(value, dict):
        total = max(1, estimate_tokens(value))
        entries = {k: shorten(v, estimate_tokens(v) * tokens // total) for k, v in value.items()}
        return {k: v for k, v in entries.items() if not _emptied(v, value[k])}
    return value


def _emptied(after: Any, before: Any) -> bool:
    """True when shortening left nothing of a part that had something."""
    return after in EMPTY and before not in EMPTY


def extract_sentences(text: str, budget_bytes: int) -> str:
    """The most important whole sentences of `text` that fit `budget_bytes`, in order."""
    if len(text.encode("utf-8")) <= budget_bytes:
        return text
    sentences = split_sentences(text, lines=True)
    ranked = sorted(range(len(sentences)), key=lambda n: -_score(sentences[n], n, len(sentences)))
    kept: set[int] = set()
    used = 0
    for index in ranked:
        size = len(sentences[index].encode("utf-8")) + 1
        if used + size <= budget_bytes:
            kept.add(index)
            used += size
    return " ".join(sentences[n].strip() for n in sorted(kept))


def _score(sentence: str, position: int, count: int) -> float:
    score = 2.0 if position == 0 else 0.5 if position == count - 1 else 0.0
    score += len(_SIGNAL.findall(sentence))
    score += 0.5 if re.search(r"\d", sentence) else 0.0
    score -= 0.5 if len(sentence.split()) < 4 else 0.0
    return score - position / max(count, 1) * 0.5


def _shorten_list(items: list[Any], tokens: int) -> list[Any]:
    """Whole items from both ends (a plan's start, a log's latest), in their order."""
    order = [
        n for pair in zip(range(len(items)), reversed(range(len(items))), strict=True) for n in pair
    ]
    kept: list[int] = []
    used = 0
    for index in dict.fromkeys(order):
        size = estimate_tokens(items[index]) + 1
        if used + size > tokens:
            break
        kept.append(index)
        used += size
    return [items[n] for n in sorted(kept)]


def _units(
    work: dict[str, Any], classified: Mapping[str, Classified]
) -> list[tuple[list[str], Tier]]:
    """The largest parts of the context whose every key has one tier."""
    units: list[tuple[list[str], Tier]] = []

    def visit(node: Mapping[str, Any], prefix: list[str]) -> None:
        for key, value in node.items():
            path = [*prefix, str(key)]
            dotted = ".".join(path)
            tier = tier_of(dotted, classified)
            mixed = isinstance(value, dict) and any(
                c.tier is not tier for p, c in classified.items() if p.startswith(dotted + ".")
            )
            if mixed:
                visit(value, path)
            else:
                units.append((path, tier))

    visit(work, [])
    return units


def _exists(work: dict[str, Any], path: list[str]) -> bool:
    node: Any = work
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return False
        node = node[key]
    return True


def _get(work: dict[str, Any], path: list[str]) -> Any:
    node: Any = work
    for key in path:
        node = node[key]
    return node


def _set(work: dict[str, Any], path: list[str], value: Any) -> None:
    _get(work, path[:-1])[path[-1]] = value


def _delete(work: dict[str, Any], path: list[str]) -> None:
    del _get(work, path[:-1])[path[-1]]


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

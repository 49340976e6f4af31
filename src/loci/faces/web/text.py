"""How the view words what it shows: JSON as readable text, counts with their noun in the
right number (`loci.wording`), and the ranking signals of a search in a person's words."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from loci.wording import counted

#: What each ranking signal of `recall` (`loci.engine.search.signals`) says about a hit.
SIGNAL_WORDS = {
    "vector": "close in meaning to the search",
    "keyword": "uses the words of the search",
    "time": "from the time the search names",
    "actor": "said by the person the search names",
    "neighbours": "next to a closer match in its conversation",
    "group": "its conversation as a whole is close to the search",
    "group_keyword": "its conversation as a whole uses the words of the search",
}
#: Signals of a memory's sequence: for a memory outside any, they repeat its own evidence.
CONTEXT_SIGNALS = frozenset({"neighbours", "group", "group_keyword"})
#: A signal weighing under this share of the strongest one is left out of "why".
FAINT = 0.05


def pretty_json(value: Any) -> str:
    """`value` as indented JSON text with its characters as they are (`café`, `城市`,
    `Tom & Jerry's`), for an HTML page to escape: not jinja's `tojson`, which escapes them
    for a script and shows `caf\\u00e9` in a page."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def reasons(
    signals: Mapping[str, float],
    weights: Mapping[str, float] | None,
    similarity: float,
    in_sequence: bool,
) -> list[str]:
    """Why a hit ranked where it did, in words, what weighed most first: each signal that
    counted (those of a sequence only for a memory in one), with how strongly it held (the
    signals are 0-1 over the memories the search weighed; meaning also as the similarity)."""
    weighed = {
        name: value * (weights or {}).get(name, 1.0)
        for name, value in signals.items()
        if name in SIGNAL_WORDS and (in_sequence or name not in CONTEXT_SIGNALS)
    }
    strongest = max(weighed.values(), default=0.0)
    if strongest <= 0:
        return ["nothing in particular: no signal stood out"]
    shown = sorted(
        (name for name, part in weighed.items() if part >= FAINT * strongest),
        key=lambda name: -weighed[name],
    )
    return [f"{SIGNAL_WORDS[name]} ({_how(name, signals[name], similarity)})" for name in shown]


def _how(name: str, value: float, similarity: float) -> str:
    if name == "vector":
        return f"similarity {similarity:.2f}"
    return "strongly" if value >= 0.8 else "partly" if value >= 0.4 else "slightly"


def correction_number(described: str) -> str:
    """The number of a cast correction as `Correction.described` writes it ("#3: ...")."""
    found = CORRECTION_NUMBER.match(described)
    return found.group(1) if found else ""


CORRECTION_NUMBER = re.compile(r"#(\d+): ")
#: `plural`: `1 time`, `2 times`, `3 memories` (`counted`, as the tools and the CLI say it).
FILTERS: dict[str, Callable[..., Any]] = {
    "pretty_json": pretty_json,
    "plural": counted,
    "correction_number": correction_number,
}

"""Turn- and session-level recall@k, as `../shared/eval/README.md` defines them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


def recall_at_k(gold: Sequence[str], retrieved: Sequence[str], k: int) -> float:
    """Share of the gold items found among the first `k` retrieved (0 when there is no gold)."""
    wanted = set(gold)
    if not wanted:
        return 0.0
    return len(wanted & set(retrieved[:k])) / len(wanted)


def session_recall_at_k(
    gold: Sequence[str], retrieved: Sequence[str], k: int, session_of: Callable[[str], str | None]
) -> float:
    """recall@k over sessions: the gold turns' sessions among the first `k` distinct sessions
    of the retrieved turns, in the order they first appear (sessions retrieved, ranked)."""
    gold_sessions = _sessions(gold, session_of)
    return recall_at_k(gold_sessions, _sessions(retrieved, session_of), k)


def sessions_of_turns_recall(
    gold: Sequence[str], retrieved: Sequence[str], k: int, session_of: Callable[[str], str | None]
) -> float:
    """The stricter reading: the gold sessions among the sessions of the first `k` turns."""
    return recall_at_k(_sessions(gold, session_of), _sessions(retrieved[:k], session_of), k)


def _sessions(turns: Sequence[str], session_of: Callable[[str], str | None]) -> list[str]:
    return [s for s in dict.fromkeys(session_of(t) for t in turns) if s is not None]


@dataclass
class Scoreboard:
    """Running means of recall@k per question category and overall."""

    ks: tuple[int, ...]
    session_k: int = 5
    _turn: dict[int, dict[int, list[float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    _session: list[float] = field(default_factory=list)
    _session_of_turns: list[float] = field(default_factory=list)

    def add(
        self,
        category: int,
        gold: Sequence[str],
        retrieved: Sequence[str],
        session_of: Callable[[str], str | None],
        deeper: Sequence[str] | None = None,
    ) -> None:
        """Score one question; sessions are ranked from `deeper` (a longer list of the same
        search, so that it holds enough distinct sessions) when given."""
        for k in self.ks:
            self._turn[category][k].append(recall_at_k(gold, retrieved, k))
        ranked = retrieved if deeper is None else deeper
        self._session.append(session_recall_at_k(gold, ranked, self.session_k, session_of))
        self._session_of_turns.append(
            sessions_of_turns_recall(gold, retrieved, self.session_k, session_of)
        )

    @property
    def questions(self) -> int:
        """How many questions were scored."""
        return len(self._session)

    def report(self) -> dict[str, Any]:
        """`recall@k` overall, `session_recall@5` (and its stricter reading over the sessions
        of the top 5 turns), and `per_category` -> {recall@k, n}."""
        overall: dict[str, Any] = {
            f"recall@{k}": _mean([v for by_k in self._turn.values() for v in by_k[k]])
            for k in self.ks
        }
        overall[f"session_recall@{self.session_k}"] = _mean(self._session)
        overall[f"session_recall@{self.session_k}_of_turns"] = _mean(self._session_of_turns)
        overall["per_category"] = {
            str(category): {
                **{f"recall@{k}": _mean(by_k[k]) for k in self.ks},
                "n": len(by_k[self.ks[0]]),
            }
            for category, by_k in sorted(self._turn.items())
        }
        return overall


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0

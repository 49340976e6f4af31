"""What the memories page asks for and shows: the filters read from its URL (applied alike to
a search and to the list), the hits of a search that match it well, and the links between the
pages of a list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from starlette.datastructures import QueryParams

from loci.errors import InvalidInputError
from loci.storage.memory_tables.pages import Shown
from loci.toolsets.memory.models import MemoryHit, RecallResult

#: A hit is a good match when its meaning is this close to the search (cosine) or it shares a
#: word with it. Unrelated text scores 0.0-0.25 against memories with the bundled model (a
#: made-up word scored at most 0.23 on the test notes), related text 0.3 and up.
GOOD_SIMILARITY = 0.3
#: Cursors of earlier pages a list's links carry (for "previous"); older ones are dropped.
KEPT_PAGES = 40
#: Parameters of the list that say where a page is, not what it shows.
PAGING = ("after", "back")


@dataclass(frozen=True)
class Filters:
    """The conditions of the memories page, for a search and a list alike."""

    tag: str | None
    min_importance: float | None
    since: str | None
    until: str | None

    @classmethod
    def read(cls, params: QueryParams) -> Filters:
        """The filters of the page's URL (empty fields: none)."""
        return cls(
            tag=(params.get("tag") or "").strip() or None,
            min_importance=number(params.get("min_importance"), "min_importance"),
            since=params.get("since") or None,
            until=params.get("until") or None,
        )

    @property
    def any(self) -> bool:
        """Whether any condition is set."""
        return any(v is not None for v in (self.tag, self.min_importance, self.since, self.until))

    def shown(self, namespace: str | None) -> Shown:
        """The conditions of a list (times: when each memory happened, else was stored)."""
        return Shown(
            namespaces=frozenset({namespace}) if namespace else None,
            tag=self.tag,
            min_importance=self.min_importance or 0.0,
            since=self.since,
            until=self.until,
        )

    def recall_filter(self) -> dict[str, Any] | None:
        """The conditions of a search, as `recall` filters: its filters know when a memory
        was stored, not when it happened, so the page says that dates mean that there."""
        conditions: list[dict[str, Any]] = []
        if self.tag is not None:
            conditions.append({"field": "tags", "operator": "contains", "value": self.tag})
        if self.min_importance is not None:
            conditions.append(
                {"field": "importance", "operator": "gte", "value": self.min_importance}
            )
        if self.since is not None:
            conditions.append({"field": "created_at", "operator": "gte", "value": self.since})
        if self.until is not None:
            conditions.append({"field": "created_at", "operator": "lt", "value": self.until})
        return {"operator": "and", "filters": conditions} if conditions else None


def good_hits(found: RecallResult) -> tuple[list[MemoryHit], int]:
    """The hits that match well (close in meaning, or sharing a word with the search: the
    `keyword` signal, which needs `explain`), and how many weaker ones were left out."""
    good = [
        hit
        for hit in found.memories
        if hit.similarity >= GOOD_SIMILARITY or (hit.signals or {}).get("keyword", 0.0) > 0.0
    ]
    return good, len(found.memories) - len(good)


def number(text: str | None, field: str) -> float | None:
    """A number typed in a form (None when left empty)."""
    if not text or not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        raise InvalidInputError(
            f"{field} must be a number, got {text[:40]!r}", field=field
        ) from None


@dataclass(frozen=True)
class Pages:
    """Where a page of the list is among the others: links to the first, previous and next
    pages, and its number. Pages are read by keyset (a cursor after the last memory shown),
    so the cursors of the pages before travel in the links (`back`)."""

    first: str | None
    previous: str | None
    next: str | None
    number: int | None  # None past the pages whose cursors the links carry


def pages(path: str, params: QueryParams, following: str | None) -> Pages:
    """The links of the page `params` asks for, whose next page starts after `following`."""
    kept = [(k, v) for k, v in params.multi_items() if k not in PAGING]
    after = params.get("after") or None
    back = [c for c in (params.get("back") or "").split(",") if c]
    if after is None:
        back = []

    def link(cursor: str | None, trail: list[str]) -> str:
        extra = [("after", cursor)] if cursor else []
        if cursor and trail:
            extra.append(("back", ",".join(trail[-KEPT_PAGES:])))
        query = urlencode(kept + extra)
        return f"{path}?{query}" if query else path

    first = link(None, []) if after is not None else None
    previous = None
    if after is not None:
        previous = link(back[-1], back[:-1]) if back else first
    following_link = link(following, [*back, after] if after else []) if following else None
    number = len(back) + (2 if after else 1) if len(back) < KEPT_PAGES else None
    return Pages(first, previous, following_link, number)


def summary(shown: int, where: Pages, size: int, total: int, filtered: bool, scope: str) -> str:
    """Which memories a page of the list shows among how many: `Memories 51-100 of 1,737.`
    (with filters, the total is the scope's, the count of those that match being unknown)."""
    if not shown:
        return ""
    span = f"{shown}"
    if where.number is not None:
        first = (where.number - 1) * size + 1
        span = f"{first:,}\N{EN DASH}{first + shown - 1:,}"
    if not filtered:
        return f"Memories {span} of {total:,}."
    return f"Memories {span} of those that match the filters, among the {total:,} {scope}."

"""A filter's conditions as a tree: what the filter compiler (`search.filters`) makes of a
filter, and what the mirror of filter fields (`facets`) judges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Test:
    """One condition: `field` `op` `value`, the value as the filter compiler normalised it (a
    string, a number, or a list of them for `in` / `nin`; times in their stored format)."""

    field: str
    op: str
    value: Any


@dataclass(frozen=True)
class Group:
    """Conditions joined by "and" or "or"."""

    joiner: str
    parts: tuple[Condition, ...]


Condition = Test | Group

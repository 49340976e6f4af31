"""What loci needs of a vector index, embedded or server-backed: a small Protocol, the
filter a search takes and the hits it returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

FloatMatrix = npt.NDArray[np.float32]
KeyArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Allowed:
    """Which vectors a search may return; every part given must hold.

    Filters are applied before ranking: a search ranks only allowed vectors. `where` is a
    condition over `memories m` (with `params`) for indexes in the database to apply
    themselves; an index in memory is given `keys` instead.
    """

    namespaces: frozenset[str] | None = None
    keys: KeyArray | None = None
    where: str | None = None
    params: tuple[Any, ...] = ()


class Hit(NamedTuple):
    """One search result: the memory's key and its cosine similarity to the query.

    A named tuple rather than a dataclass: a search makes dozens, and a frozen dataclass
    costs three times as much to build."""

    key: int
    similarity: float


class VectorIndex(Protocol):
    """What loci needs of a vector index, embedded or server-backed."""

    def upsert(self, keys: Sequence[int], vectors: FloatMatrix, namespaces: Sequence[str]) -> None:
        """Insert or replace vectors (rows of unit length) under their keys."""
        ...

    def delete(self, keys: Sequence[int]) -> None:
        """Remove keys; unknown keys are ignored."""
        ...

    def search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """The `k` allowed vectors most similar to `query`, best first."""
        ...

    def get(self, key: int) -> FloatMatrix | None:
        """The stored vector of `key`, or None."""
        ...

    def similarities(self, query: FloatMatrix, keys: KeyArray) -> npt.NDArray[np.float64]:
        """Cosine similarity of `query` to each key (NaN for keys not indexed)."""
        ...

    def count(self) -> int:
        """How many vectors are indexed."""
        ...

    def reserve(self, count: int) -> None:
        """A hint that the index will soon hold `count` vectors (before a bulk load)."""
        ...

    def clear(self) -> None:
        """Drop everything (before a rebuild)."""
        ...

    def warm(self) -> None:
        """Build now what searches would build on first use."""
        ...

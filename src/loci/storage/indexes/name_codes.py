"""Small integer codes for names (namespaces, speakers), in the order they are first seen.

The in-memory mirrors keep one int32 code per row instead of a string, so that a filter on
namespaces is a comparison or a table lookup over a numpy array.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt


class NameCodes:
    """Names and their codes: 0, 1, 2... as each name is first seen. Codes are never reused."""

    def __init__(self) -> None:
        self._codes: dict[str, int] = {}
        self._names: list[str] = []

    def __len__(self) -> int:
        return len(self._names)

    @property
    def names(self) -> Sequence[str]:
        """The names by code (a live view: it grows as names are added)."""
        return self._names

    def code(self, name: str) -> int:
        """The code of `name`, given now if it is new."""
        code = self._codes.get(name)
        if code is None:
            code = self._codes[name] = len(self._names)
            self._names.append(name)
        return code

    def codes(self, names: Sequence[str]) -> npt.NDArray[np.int32]:
        """The code of each of `names`, new ones given in the order they come (one lookup
        per distinct name: a load of 100k rows names a handful of namespaces)."""
        by_name = {name: self.code(name) for name in dict.fromkeys(names)}
        return np.fromiter(map(by_name.__getitem__, names), np.int32, len(names))

    def known(self, names: Iterable[str]) -> npt.NDArray[np.int32]:
        """The codes of those of `names` already seen."""
        return np.array([self._codes[n] for n in names if n in self._codes], dtype=np.int32)

    def admitted(self, names: Iterable[str]) -> npt.NDArray[np.bool_]:
        """A table by code: whether each name is among `names` (with one spare, False entry,
        so that the table is never empty)."""
        table = np.zeros(len(self._names) + 1, dtype=np.bool_)
        table[self.known(names)] = True
        return table

"""One metadata key's values, as SQLite's ``json_extract`` gives them, coded and judged as
SQLite judges them.

A recall filter on ``metadata.<key>`` compiles to ``json_extract(m.metadata, '$."key"') op ?``
(see `loci.memory.filters`). SQLite has no index for that: at 100k memories it read every row,
embedding included, in ~120 ms. The facets mirror (`loci.stores.facets`) keeps, for each key a
filter has tested, one small code per memory; a code stands for one distinct value, and a
condition is judged once per distinct value, then looked up by code.

The values are the ones SQLite returned (NULL, an integer, a real or a text: a JSON object or
array comes out as its JSON text), so that judging them the way SQLite compares values with no
affinity gives SQL's answer: NULL satisfies no comparison (``!=`` and ``NOT IN`` neither);
numbers compare by value, integers and reals alike; every number sorts before every text; texts
compare as the BINARY collation does (code point order, which UTF-8 byte order preserves).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

SqlValue = int | float | str | None
Mask = npt.NDArray[np.bool_]

#: The code of NULL (a missing key, or a JSON null).
NULL = 0

_ORDER: dict[str, Callable[[Any, Any], Any]] = {
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
}
#: What an ordering test says of a value of the other kind: numbers come before texts.
_NUMBER_BEFORE_TEXT = {"gt": False, "gte": False, "lt": True, "lte": True}


def metadata_path(field: str) -> str:
    """The JSON path of a ``metadata.<key>[.<key>...]`` filter field, as SQL receives it (the
    keys were checked to hold only letters, digits, '_' and '-')."""
    return "$" + "".join(f'."{key}"' for key in field.split(".")[1:])


class ValueCodes:
    """Distinct SQL values and their codes, 0 (NULL) first, then each value as first seen.

    An integer and a real of equal value share a code (a dict cannot tell them apart, and no
    comparison SQL makes here can either)."""

    def __init__(self) -> None:
        self._codes: dict[SqlValue, int] = {None: NULL}
        self._values: list[SqlValue] = [None]

    def __len__(self) -> int:
        return len(self._values)

    def code(self, value: SqlValue) -> int:
        """The code of `value`, given now if it is new."""
        code = self._codes.get(value)
        if code is None:
            code = self._codes[value] = len(self._values)
            self._values.append(value)
        return code

    def table(self, op: str, operand: Any) -> Mask:
        """By code: whether SQLite finds ``value op operand`` true. `operand` is a text or a
        number, or a list of them for ``in`` / ``nin``."""
        if op in ("eq", "in", "ne", "nin"):
            equal = self._equal(operand if isinstance(operand, list) else [operand])
            if op in ("eq", "in"):
                return equal
            equal[NULL] = True  # NULL != x is NULL, not true
            return ~equal
        return self._ordered(op, operand)

    def _equal(self, operands: Sequence[Any]) -> Mask:
        table = np.zeros(len(self._values), dtype=np.bool_)
        for operand in operands:
            # A text never equals a number in SQL, and the dict agrees: '1' and 1 differ.
            code = self._codes.get(operand)
            if code is not None and code != NULL:
                table[code] = True
        return table

    def _ordered(self, op: str, operand: Any) -> Mask:
        compare = _ORDER[op]
        operand_is_text = isinstance(operand, str)
        other_kind = _NUMBER_BEFORE_TEXT[op] if operand_is_text else not _NUMBER_BEFORE_TEXT[op]
        return np.fromiter(
            (
                False
                if value is None
                else bool(compare(value, operand))
                if isinstance(value, str) is operand_is_text
                else other_kind
                for value in self._values
            ),
            dtype=np.bool_,
            count=len(self._values),
        )

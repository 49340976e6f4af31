"""One metadata key's values, as SQLite's ``json_extract`` gives them, coded and judged as
SQLite judges them.

A recall filter on ``metadata.<key>`` compiles to ``json_extract(m.metadata, '$."key"') op ?``
(see `loci.engine.search.filters`). SQLite has no index for that: it reads every row, embedding
included. The facets mirror (`loci.storage.indexes.facets.mirror`) keeps, for each key a
filter has tested, one small code per memory; a code stands for one distinct value, and a
condition is judged once per distinct value, then looked up by code.

The values are the ones SQLite returned (NULL, an integer, a real or a text: a JSON object or
array comes out as its JSON text, and its JSON type is kept beside it), so that judging them the
way SQLite compares values with no affinity gives SQL's answer: NULL satisfies no comparison
(``!=`` and ``NOT IN`` neither); numbers compare by value, integers and reals alike; every
number sorts before every text; texts compare as the BINARY collation does (code point order,
which UTF-8 byte order preserves).

``contains`` is true of an array holding an element equal to the needle (``json_each``), and of
a JSON string holding the needle (``instr``), never of anything else. Where SQLite's answer
rests on how it would print a value (a real needle inside a text; an array holding arrays or
objects, whose elements it compares as JSON text), `table` gives None and SQL judges.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

SqlValue = int | float | str | None
Mask = npt.NDArray[np.bool_]
#: What ``json_type`` says of a value that comes out as JSON text ("" for any other value).
CONTAINERS = ("array", "object")

#: The code of NULL (a missing key, or a JSON null).
NULL = 0

#: The filter operators that compare two values, as Python's operators (also the facets').
COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq,
    "ne": operator.ne,
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
    """Distinct SQL values (with the JSON container each came from, if any) and their codes,
    0 (NULL) first, then each as first seen.

    An integer and a real of equal value share a code (a dict cannot tell them apart, and no
    comparison SQL makes here can either)."""

    def __init__(self) -> None:
        self._codes: dict[tuple[str, SqlValue], int] = {("", None): NULL}
        self._values: list[SqlValue] = [None]
        self._containers: list[str] = [""]
        # For `contains`, made on first use and extended as values come: array element ->
        # the codes of the arrays that hold it, and the arrays that hold arrays or objects.
        self._holders: dict[Any, list[int]] = {}
        self._nested: list[int] = []
        self._indexed = 0  # codes read into `_holders` so far

    def __len__(self) -> int:
        return len(self._values)

    def code(self, value: SqlValue, json_type: str | None = None) -> int:
        """The code of `value` (with ``json_type``'s word for it), given now if it is new."""
        container = json_type if json_type in CONTAINERS else ""
        key = (container, value)
        code = self._codes.get(key)
        if code is None:
            code = self._codes[key] = len(self._values)
            self._values.append(value)
            self._containers.append(container)
        return code

    def table(self, op: str, operand: Any) -> Mask | None:
        """By code: whether SQLite finds ``value op operand`` true (None: let SQL judge).
        `operand` is a text or a number, or a list of them for ``in`` / ``nin``."""
        if op in ("eq", "in", "ne", "nin"):
            equal = self._equal(operand if isinstance(operand, list) else [operand])
            if op in ("eq", "in"):
                return equal
            equal[NULL] = True  # NULL != x is NULL, not true
            return ~equal
        if op == "contains":
            return self._containing(operand)
        return self._ordered(op, operand)

    def _equal(self, operands: Sequence[Any]) -> Mask:
        table = np.zeros(len(self._values), dtype=np.bool_)
        for operand in operands:
            # A text never equals a number in SQL, and the dict agrees: '1' and 1 differ.
            for container in ("", *CONTAINERS):
                code = self._codes.get((container, operand))
                if code is not None and code != NULL:
                    table[code] = True
        return table

    def _containing(self, needle: str | int | float) -> Mask | None:
        """Arrays holding the needle, and JSON strings holding it as text; objects, numbers
        and NULL hold nothing."""
        self._index_arrays()
        if self._nested:
            return None  # SQL compares their arrays and objects as JSON text
        table = np.zeros(len(self._values), dtype=np.bool_)
        # A dict key equal to the needle is an element SQL finds equal: true is 1, and a text
        # never equals a number (nor null anything).
        table[self._holders.get(needle, [])] = True
        text = str(needle)
        for code, (value, container) in enumerate(zip(self._values, self._containers, strict=True)):
            if container or not isinstance(value, str):
                continue
            if isinstance(needle, float):
                return None  # SQL looks for the real as SQLite prints it, which Python may not
            table[code] = text in value
        return table

    def _index_arrays(self) -> None:
        for code in range(self._indexed, len(self._values)):
            if self._containers[code] != "array":
                continue
            elements = json.loads(str(self._values[code]))
            if any(isinstance(element, list | dict) for element in elements):
                self._nested.append(code)
                continue
            for element in set(elements):
                self._holders.setdefault(element, []).append(code)
        self._indexed = len(self._values)

    def _ordered(self, op: str, operand: Any) -> Mask:
        compare = COMPARE[op]
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

"""Metadata filter conditions in PostgreSQL's SQL, answering as SQLite's do.

On SQLite a metadata filter compiles to ``json_extract(m.metadata, path) op ?`` and follows
SQLite's rules for values of no affinity (`storage.memory_tables.metadata_values` states them). PostgreSQL
types values strictly, so the same rules are written once as SQL functions of the memory
tables (`loci_json_test`, `loci_json_contains`, in `storage/postgres/memory_tables.py`) and a
condition here only binds the stored value's path, the operator and the operand to them.
"""

from __future__ import annotations

from typing import Any

#: The stored value at a path bound as a text array (NULL when the key is missing).
_VALUE = "(m.metadata::jsonb #> CAST(? AS TEXT[]))"
_TEST = f"loci_json_test({_VALUE}, CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT))"


def metadata_condition(keys: list[str], op: str, operand: Any, params: list[Any]) -> str:
    """`metadata.<keys>` compared with `operand` by `op` (eq, ne, gt, gte, lt, lte, in, nin,
    contains); appends the parameters in order."""
    if op == "contains":
        number, text = _operand(operand)
        params.extend([keys, number, text, str(operand)])
        return (
            f"loci_json_contains({_VALUE}, CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT), "
            "CAST(? AS TEXT))"
        )
    if op in ("in", "nin"):
        joiner, each = (" OR ", "eq") if op == "in" else (" AND ", "ne")
        return "(" + joiner.join(_test(keys, each, value, params) for value in operand) + ")"
    return _test(keys, op, operand, params)


def _test(keys: list[str], op: str, operand: Any, params: list[Any]) -> str:
    params.extend([keys, op, *_operand(operand)])
    return _TEST


def _operand(operand: Any) -> tuple[float | None, str | None]:
    """The operand as a number or as a text (the other None)."""
    if isinstance(operand, str):
        return None, operand
    return float(operand), None

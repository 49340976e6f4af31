"""Recall and forget filters: parsed from the caller's JSON, compiled to parameterised SQL.

Accepted forms (a field condition, nestable and/or groups, and a shorthand):

- ``{"field": "importance", "operator": "gte", "value": 0.5}``
- ``{"operator": "or", "filters": [<filter or group>, ...]}`` (``and`` / ``or``, nestable)
- shorthand: ``{"tags": {"contains": "x"}, "importance": {"lt": 0.1}, "source": "manual"}``,
  every key ANDed, a bare value meaning ``eq``; ``{"and": [...]}`` / ``{"or": [...]}``.

Fields: namespace, source, content, tags, importance, access_count, created_at, updated_at,
last_accessed, and ``metadata.<key>[.<key>...]``. Compiled SQL refers to the table as ``m``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from loci import fields
from loci.engine.search import postgres_filters
from loci.errors import InvalidInputError
from loci.storage.databases.db import Connection, Engine
from loci.storage.indexes.facets.mirror import MemoryFacets
from loci.storage.indexes.vectors.protocol import Allowed
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import validity
from loci.storage.memory_tables.conditions import Condition, Group, Test
from loci.storage.memory_tables.metadata_values import metadata_path
from loci.timeutil import format_time, parse_time

OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains")
TEXT_FIELDS = ("namespace", "source", "content")
NUMBER_FIELDS = ("importance", "access_count")
TIME_FIELDS = ("created_at", "updated_at", "last_accessed")
FIELDS = (*TEXT_FIELDS, *NUMBER_FIELDS, *TIME_FIELDS, "tags", "metadata.<key>")
METADATA_KEY = re.compile(r"^[A-Za-z0-9_\-]{1,64}\Z")
MAX_DEPTH = 8
MAX_CONDITIONS = 64
MAX_LIST = 1000
#: Values a whole filter may bind. SQLite binds at most 32,766 per statement in its default
#: build (some systems' builds allow more), and a recall binds a few thousand of its own.
MAX_VALUES = 10_000
COMPARE = {"eq": "=", "ne": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


@dataclass
class CompiledFilter:
    """A WHERE clause over `m` with its parameters; namespaces pulled out when ANDed at the top."""

    sql: str = "TRUE"
    params: list[Any] = field(default_factory=list)
    namespaces: frozenset[str] | None = None
    only_namespaces: bool = True
    # The same conditions as `sql` but the namespaces, for the in-memory facets (None: none).
    condition: Condition | None = None


class Part(NamedTuple):
    """A compiled piece of a filter: its SQL and its condition."""

    sql: str
    condition: Condition


@dataclass
class _Compiling:
    """What compiling one filter keeps track of: the SQL dialect and the conditions so far."""

    dialect: Engine
    conditions: int = 0


def compile_filter(
    spec: Mapping[str, Any] | None,
    namespace: str | None = None,
    dialect: Engine = "sqlite",
    as_of: str | None = None,
) -> CompiledFilter:
    """Compile a filter spec (and an optional namespace, and `as_of`: only memories true at
    that stored-form time) into SQL of `dialect`; raises InvalidInputError."""
    compiled = CompiledFilter()
    clauses: list[str] = []
    conditions: list[Condition] = []
    if namespace is not None:
        compiled.namespaces = frozenset([fields.namespace(namespace)])
    if spec:
        if not isinstance(spec, Mapping):
            raise _bad("filters must be a JSON object")
        counter = _Compiling(dialect)
        for node in _top_level_conjuncts(spec):
            names = _namespace_constraint(node)
            if names is not None:
                current = compiled.namespaces
                compiled.namespaces = names if current is None else current & names
                continue
            part = _compile_node(node, compiled.params, 0, counter)
            clauses.append(part.sql)
            conditions.append(part.condition)
            compiled.only_namespaces = False
    if as_of is not None:
        # Not a field the mirror of filter fields holds: a filter with it goes to SQL.
        clauses.append(validity.valid_at_clause())
        compiled.params += [as_of, as_of]
        conditions.append(Test("valid_at", "eq", as_of))
        compiled.only_namespaces = False
    if compiled.namespaces is not None:
        marks = ",".join("?" * len(compiled.namespaces))
        clauses.insert(0, f"m.namespace IN ({marks})" if marks else "FALSE")
        compiled.params[:0] = sorted(compiled.namespaces)
    if len(compiled.params) > MAX_VALUES:
        raise _bad(
            f"filters hold {len(compiled.params)} values in all, more than {MAX_VALUES}; "
            "split the work into several calls"
        )
    compiled.sql = " AND ".join(f"({c})" for c in clauses) if clauses else "TRUE"
    if conditions:
        compiled.condition = Group("and", tuple(conditions))
    return compiled


def _top_level_conjuncts(spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    if "filters" in spec or "field" in spec:
        if spec.get("operator", "and") == "and" and "filters" in spec:
            items = spec["filters"]
            if not isinstance(items, list) or not items:
                raise _bad("a filter group needs a non-empty list 'filters'")
            return [_as_mapping(item) for item in items]
        return [spec]
    if set(spec) == {"and"}:
        items = spec["and"]
        if not isinstance(items, list) or not items:
            raise _bad("'and' must be a non-empty list of filters")
        return [_as_mapping(item) for item in items]
    return [{key: value} for key, value in spec.items()]


def _namespace_constraint(node: Mapping[str, Any]) -> frozenset[str] | None:
    """Namespace eq / in conditions, which the vector index applies without SQL."""
    if node.get("field") == "namespace" and node.get("operator") in ("eq", "in"):
        return _namespace_values(node.get("value"))
    if set(node) == {"namespace"}:
        value = node["namespace"]
        if isinstance(value, str):
            return _namespace_values(value)
        if isinstance(value, Mapping) and len(value) == 1:
            op, operand = next(iter(value.items()))
            if op in ("eq", "in"):
                return _namespace_values(operand)
    return None


def _namespace_values(value: Any) -> frozenset[str]:
    values = value if isinstance(value, list) else [value]
    if not values or len(values) > MAX_LIST:
        raise _bad(f"namespace 'in' needs 1-{MAX_LIST} names")
    return frozenset(fields.namespace(v, "filters.namespace") for v in values)


def _compile_node(node: Any, params: list[Any], depth: int, counter: _Compiling) -> Part:
    node = _as_mapping(node)
    if depth > MAX_DEPTH:
        raise _bad(f"filters nest deeper than {MAX_DEPTH} levels")
    if "filters" in node:
        return _compile_group(node, params, depth, counter)
    if set(node) <= {"and"} or set(node) <= {"or"}:
        ((joiner, items),) = node.items()
        return _compile_group({"operator": joiner, "filters": items}, params, depth, counter)
    if "field" in node:
        unknown = set(node) - {"field", "operator", "value"}
        if unknown:
            raise _bad(f"unexpected key(s) {sorted(unknown)} in filter {fields.shown(dict(node))}")
        return _condition(
            node.get("field"), node.get("operator", "eq"), node.get("value"), params, counter
        )
    parts: list[Part] = []
    for name, spec in node.items():
        if isinstance(spec, Mapping):
            if not spec:
                raise _bad(f"no operator given for field {fields.shown(name)}")
            parts.extend(_condition(name, op, value, params, counter) for op, value in spec.items())
        else:
            parts.append(_condition(name, "eq", spec, params, counter))
    return _joined("and", parts)


def _compile_group(
    node: Mapping[str, Any], params: list[Any], depth: int, counter: _Compiling
) -> Part:
    joiner = node.get("operator", "and")
    if joiner not in ("and", "or"):
        raise _bad(f"a filter group's operator must be 'and' or 'or', got {fields.shown(joiner)}")
    items = node.get("filters")
    if not isinstance(items, list) or not items:
        raise _bad("a filter group needs a non-empty list 'filters'")
    return _joined(joiner, [_compile_node(item, params, depth + 1, counter) for item in items])


def _joined(joiner: str, parts: list[Part]) -> Part:
    clause = f" {joiner.upper()} ".join(f"({part.sql})" for part in parts)
    return Part(clause, Group(joiner, tuple(part.condition for part in parts)))


def _condition(name: Any, op: Any, value: Any, params: list[Any], counter: _Compiling) -> Part:
    counter.conditions += 1
    if counter.conditions > MAX_CONDITIONS:
        raise _bad(f"filters have more than {MAX_CONDITIONS} conditions")
    if op not in OPERATORS:
        raise _bad(f"unknown operator {fields.shown(op)}; use one of {list(OPERATORS)}")
    if not isinstance(name, str):
        raise _bad(f"a filter field must be a string, got {fields.shown(name)}")
    if name == "tags":
        clause, tags = _tags_condition(op, value, params)
        return Part(clause, Test(name, op, tags))
    if name.startswith("metadata."):
        return _metadata_condition(name, op, value, params, counter.dialect)
    if name in TEXT_FIELDS:
        typed = _typed(value, op, str, name)
    elif name in NUMBER_FIELDS:
        typed = _typed(value, op, float, name)
    elif name in TIME_FIELDS:
        typed = _times(value, op, name)
    else:
        raise _bad(f"unknown filter field {fields.shown(name)}; fields: {list(FIELDS)}")
    return Part(
        _column_condition(f"m.{name}", op, typed, params, counter.dialect), Test(name, op, typed)
    )


def _column_condition(
    column: str, op: str, value: Any, params: list[Any], dialect: Engine = "sqlite"
) -> str:
    if op in COMPARE:
        params.append(value)
        return f"{column} {COMPARE[op]} ?"
    if op in ("in", "nin"):
        params.extend(value)
        negate = "NOT " if op == "nin" else ""
        return f"{column} {negate}IN ({','.join('?' * len(value))})"
    if not isinstance(value, str):
        raise _bad(f"'contains' on {column[2:]} needs a string")
    params.append(value)
    return f"strpos({column}, ?) > 0" if dialect == "postgresql" else f"instr({column}, ?) > 0"


def _tags_condition(op: str, value: Any, params: list[Any]) -> tuple[str, Any]:
    """The SQL of a tags condition, and the tag (or tags) it tests."""
    exists = "EXISTS (SELECT 1 FROM memory_tags t WHERE t.memory_seq = m.seq AND t.tag {})"
    if op in ("contains", "eq", "ne"):
        tag = _typed(value, "eq", str, "tags")
        params.append(tag)
        clause = exists.format("= ?")
        return (f"NOT {clause}" if op == "ne" else clause), tag
    if op in ("in", "nin"):
        values = _typed(value, op, str, "tags")
        params.extend(values)
        clause = exists.format(f"IN ({','.join('?' * len(values))})")
        return (f"NOT {clause}" if op == "nin" else clause), values
    raise _bad(f"operator {op!r} does not apply to tags; use contains, in, nin, eq or ne")


def _metadata_condition(name: str, op: str, value: Any, params: list[Any], dialect: Engine) -> Part:
    keys = name.split(".")[1:]
    if not keys or not all(METADATA_KEY.match(k) for k in keys):
        raise _bad(
            f"metadata filter field {fields.shown(name)} must be 'metadata.' followed by "
            "dot-separated keys of letters, digits, '_' or '-'"
        )
    if dialect == "postgresql":
        operand = _metadata_operand(op, value, name)
        return Part(
            postgres_filters.metadata_condition(keys, op, operand, params), Test(name, op, operand)
        )
    path = metadata_path(name)
    if op == "contains":
        needle = _scalar(value, name)
        params.extend([path, path, needle, path, needle])
        return Part(
            "(CASE json_type(m.metadata, ?) "
            "WHEN 'array' THEN EXISTS (SELECT 1 FROM json_each(m.metadata, ?) j WHERE j.value = ?) "
            "WHEN 'text' THEN instr(json_extract(m.metadata, ?), ?) > 0 ELSE 0 END)",
            Test(name, op, needle),
        )
    params.append(path)
    column = "json_extract(m.metadata, ?)"
    if op in ("in", "nin"):
        if not isinstance(value, list) or not 0 < len(value) <= MAX_LIST:
            raise _bad(f"'{op}' on {name} needs a list of 1-{MAX_LIST} values")
        values = [_scalar(v, name) for v in value]
        return Part(_column_condition(column, op, values, params), Test(name, op, values))
    operand = _scalar(value, name)
    return Part(_column_condition(column, op, operand, params), Test(name, op, operand))


def _metadata_operand(op: str, value: Any, name: str) -> Any:
    """The operand of a metadata condition: a list of scalars for in/nin, else a scalar."""
    if op in ("in", "nin"):
        if not isinstance(value, list) or not 0 < len(value) <= MAX_LIST:
            raise _bad(f"'{op}' on {name} needs a list of 1-{MAX_LIST} values")
        return [_scalar(v, name) for v in value]
    return _scalar(value, name)


def _scalar(value: Any, name: str) -> Any:
    if isinstance(value, bool):
        return int(value)  # JSON true/false come out of json_extract as 1/0
    if isinstance(value, int | float):
        return _sqlite_number(value, name)
    if isinstance(value, str):
        return _text(value, name)
    raise _bad(f"values compared with {name} must be strings, numbers or booleans")


def _sqlite_number(value: int | float, name: str) -> int | float:
    """`value`, if SQLite can hold it (its integers are 64-bit)."""
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        raise _bad(f"{name} is compared with a number out of range: {fields.shown(value)}")
    return value


def _typed(value: Any, op: str, kind: type, name: str) -> Any:
    if op in ("in", "nin"):
        if not isinstance(value, list) or not 0 < len(value) <= MAX_LIST:
            raise _bad(f"'{op}' on {name} needs a list of 1-{MAX_LIST} values")
        return [_one(v, kind, name) for v in value]
    return _one(value, kind, name)


def _one(value: Any, kind: type, name: str) -> Any:
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _bad(f"{name} is compared with numbers, got {fields.shown(value)}")
        return _sqlite_number(value, name)
    if not isinstance(value, str):
        raise _bad(f"{name} is compared with strings, got {fields.shown(value)}")
    return _text(value, name)


def _text(value: str, name: str) -> str:
    """A text operand that SQLite can bind: no lone surrogates (the CLI reads invalid UTF-8
    in its arguments as such)."""
    try:
        fields.utf8(value, name)
    except InvalidInputError as exc:
        raise _bad(exc.message) from None
    return value


def _times(value: Any, op: str, name: str) -> Any:
    if op == "contains":
        raise _bad(f"'contains' does not apply to {name}")
    values = _typed(value, op, str, name)
    if isinstance(values, list):
        return [_time(v, name) for v in values]
    return _time(values, name)


def _time(value: str, name: str) -> str:
    try:
        moment: datetime = parse_time(value)
    except ValueError as exc:
        raise _bad(f"{name} needs an ISO 8601 date or time, got {fields.shown(value)}") from exc
    return format_time(moment)


def _as_mapping(node: Any) -> Mapping[str, Any]:
    if not isinstance(node, Mapping):
        raise _bad(f"each filter must be a JSON object, got {fields.shown(node)}")
    return node


def _bad(message: str) -> InvalidInputError:
    return InvalidInputError(f"invalid filters: {message}", field="filters")


def admitted(
    conn: Connection, compiled: CompiledFilter, facets: MemoryFacets | None = None
) -> Allowed | None:
    """What the vector index may return for `compiled` (None: everything): the memories the
    filter admits are read from `facets` when it can judge the filter, else by SQL. Without
    `facets` (the indexes are the database's own) the filter goes as SQL."""
    if facets is None or compiled.condition is None:
        return admitted_as_sql(compiled)
    keys = facets.matching(compiled.condition, compiled.namespaces)
    if keys is None:
        keys = sql.matching_seqs(conn, compiled.sql, compiled.params)
    return Allowed(namespaces=compiled.namespaces, keys=keys)


def admitted_as_sql(compiled: CompiledFilter) -> Allowed | None:
    """What the vector index may return for `compiled`, the filter's conditions as SQL for
    the database to apply (None: everything); reads nothing."""
    if compiled.namespaces is None and compiled.only_namespaces:
        return None
    if compiled.condition is None:
        return Allowed(namespaces=compiled.namespaces)
    return Allowed(compiled.namespaces, where=compiled.sql, params=tuple(compiled.params))

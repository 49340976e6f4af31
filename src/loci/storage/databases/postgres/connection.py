"""A psycopg connection that runs loci's SQL as written for both engines.

loci's statements use `?` placeholders (SQLite's style); psycopg wants `%s`, and reads every
`%` of a statement as the start of one. Each statement is rewritten once per connection:
`?` outside quotes becomes `%s`, and every literal `%` is doubled. Results come in binary
(vectors load fastest so, and every type loci reads has a binary loader).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

import psycopg

from loci.storage.databases.db import ConstraintError, Rows


def placeholders_for_psycopg(sql: str) -> str:
    """`sql` with `?` placeholders as `%s` and literal `%` doubled; quoted text, quoted names
    and comments keep their `?` (a `%` is doubled everywhere, as psycopg reads it everywhere)."""
    out: list[str] = []
    quote: str | None = None
    in_comment = False
    for index, char in enumerate(sql):
        if char == "%":
            out.append("%%")
            continue
        if in_comment:
            in_comment = char != "\n"
        elif quote is not None:
            if char == quote:
                quote = None  # a doubled quote closes and reopens: same result
        elif char in "'\"":
            quote = char
        elif char == "-" and sql.startswith("--", index):
            in_comment = True
        elif char == "?":
            out.append("%s")
            continue
        out.append(char)
    return "".join(out)


class PgConnection:
    """The :class:`~loci.storage.databases.db.Connection` of the PostgreSQL engine."""

    dialect: Final = "postgresql"  # read by `storage.databases.dialect.dialect_of`

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw = raw
        self._rewritten: dict[str, bytes] = {}

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Rows:
        """Run one statement with `?` placeholders."""
        try:
            return self.raw.execute(self._psycopg_sql(sql), tuple(parameters), binary=True)
        except psycopg.IntegrityError as exc:
            raise ConstraintError(str(exc)) from exc

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Rows:
        """Run one statement once per parameter row."""
        rows = [tuple(row) for row in parameters]
        cursor = self.raw.cursor(binary=True)
        if not rows:  # psycopg would still enter and leave pipeline mode: a round trip
            return cursor
        try:
            cursor.executemany(self._psycopg_sql(sql), rows)
        except psycopg.IntegrityError as exc:
            raise ConstraintError(str(exc)) from exc
        return cursor

    def copy_rows(self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        """Insert many rows at once through COPY (several times faster than an INSERT per
        row); `table` and `columns` are loci's own names, never input."""
        statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
        try:
            with self.raw.cursor().copy(statement.encode("utf-8")) as copy:
                for row in rows:
                    copy.write_row(row)
        except psycopg.IntegrityError as exc:
            raise ConstraintError(str(exc)) from exc

    def run_script(self, script: str) -> None:
        """Run several statements without parameters (a migration)."""
        self.raw.execute(script.encode("utf-8"))

    def _psycopg_sql(self, sql: str) -> bytes:
        rewritten = self._rewritten.get(sql)
        if rewritten is None:
            rewritten = self._rewritten[sql] = placeholders_for_psycopg(sql).encode("utf-8")
        return rewritten

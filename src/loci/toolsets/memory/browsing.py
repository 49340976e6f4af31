"""Browsing memories page by page: by namespace, tag, time and importance, newest or oldest
first. A page is read by keyset (`storage.memory_tables.pages`), so paging stays fast in a large
store; the cursor travels as text (in a link) and is checked when it comes back."""

from __future__ import annotations

from typing import NamedTuple

from loci import fields
from loci.errors import InvalidInputError
from loci.storage.databases.db import Database
from loci.storage.memory_tables import pages as memory_pages
from loci.storage.memory_tables.pages import Cursor, Shown
from loci.toolsets.memory.models import Memory
from loci.toolsets.memory.rows import row_to_memory

#: The most memories one page shows.
MAX_PAGE = 200


class MemoryPage(NamedTuple):
    """One page: its memories, and the cursor of the next page (None: the last page)."""

    memories: list[Memory]
    next: str | None


class MemoryBrowser:
    """Pages of memories."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def page(
        self, shown: Shown, after: str | None = None, size: int = 50, oldest_first: bool = False
    ) -> MemoryPage:
        """The memories `shown` admits, `size` at a time, from the cursor `after` (a page's
        `next`; None: the first page)."""
        fields.bounded_int(size, 1, MAX_PAGE, "size")
        checked = _checked(shown)
        cursor = None if after is None else parse_cursor(after)
        with self._db.locked() as conn:
            rows, following = memory_pages.page(conn, checked, cursor, size, oldest_first)
        memories = [row_to_memory(row[:-1])[1] for row in rows]
        return MemoryPage(memories, None if following is None else cursor_text(following))


def cursor_text(cursor: Cursor) -> str:
    """The cursor as text for a link."""
    return f"{cursor.seq}~{cursor.moment}"


def parse_cursor(text: str) -> Cursor:
    """A cursor read back from `cursor_text`; anything else is refused."""
    seq, _, moment = text.partition("~")
    if not seq.isdigit() or len(seq) > 19 or not moment:
        raise InvalidInputError(f"not a page cursor: {fields.shown(text)}", field="after")
    return Cursor(fields.moment(moment, "after"), int(seq))


def _checked(shown: Shown) -> Shown:
    names = shown.namespaces
    return Shown(
        namespaces=None if names is None else frozenset(fields.namespace(n) for n in names),
        tag=None if shown.tag is None else fields.tags([shown.tag], "tag")[0],
        min_importance=fields.importance(shown.min_importance, "min_importance"),
        since=None if shown.since is None else fields.moment(shown.since, "since"),
        until=None if shown.until is None else fields.moment(shown.until, "until"),
    )

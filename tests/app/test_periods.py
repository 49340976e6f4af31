"""The memories of the periods a question names are read off the time index: the earliest,
of the namespaces and memories the filter admits, within the years the store's times span."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from loci.app import App
from loci.engine.search import when
from loci.engine.search.filters import compile_filter
from loci.errors import InvalidInputError
from loci.storage.memory_tables import timeline
from loci.storage.memory_tables.timeline import Span
from loci.toolsets.memory.conversations.messages import parse_messages
from loci.toolsets.memory.models import MemoryDraft


def chat(namespace: str, months: range, day: int = 15) -> list[dict[str, str]]:
    return [
        {
            "speaker": "Ana",
            "text": f"In month {month} {namespace} went hiking near the lake.",
            "timestamp": f"2024-{month:02d}-{day:02d}T10:00:00Z",
            "session_id": f"s{month}",
        }
        for month in months
    ]


SPANS: list[Span] = [
    (datetime(2024, 2, 1, tzinfo=UTC), datetime(2024, 4, 1, tzinfo=UTC)),
    (datetime(2024, 10, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC)),
]


def months_within(app: App, spec: dict[str, object] | None, limit: int = 1000) -> list[str]:
    """The month and namespace of each memory `seqs_within` finds in SPANS, in its order."""
    compiled = compile_filter(spec)
    with app.db.locked() as conn:
        seqs = timeline.seqs_within(conn, SPANS, compiled.sql, compiled.params, limit).tolist()
        content = dict(
            conn.execute(
                f"SELECT seq, content FROM memories WHERE seq IN ({','.join('?' * len(seqs))})",
                seqs,
            ).fetchall()
        )
    return [" ".join(content[seq].split()[3:5]) for seq in seqs]


def test_the_memories_of_the_periods_are_those_the_filter_admits(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat("mine", range(1, 13))), "mine", "a")
    app.conversations.remember_conversation(
        parse_messages(chat("theirs", range(1, 7))), "theirs", "b"
    )
    app.memory.remember(MemoryDraft("A plain note, timed when it was stored", namespace="mine"))
    assert months_within(app, {"namespace": "mine"}) == [
        "2 mine",
        "3 mine",
        "10 mine",
        "11 mine",
        "12 mine",
    ]
    assert sorted(months_within(app, None)) == sorted(
        ["2 mine", "3 mine", "10 mine", "11 mine", "12 mine", "2 theirs", "3 theirs"]
    )
    assert months_within(app, {"namespace": "theirs", "content": {"contains": "month 3"}}) == [
        "3 theirs"
    ]


def test_the_earliest_are_kept_when_too_many_fall_in_the_periods(app: App) -> None:
    app.conversations.remember_conversation(
        parse_messages(chat("mine", range(12, 0, -1))), "mine", "a"
    )
    assert months_within(app, None, limit=2) == ["2 mine", "3 mine"]


def test_a_dated_question_finds_the_memory_of_its_period(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat("mine", range(1, 13))), "mine", "a")
    answer = app.memory.recall("Where did Ana go hiking in March 2024?", limit=5, namespace="mine")
    assert "month 3 mine" in answer.memories[0].content


def test_a_query_naming_thousands_of_dates_searches_the_first_ones(app: App) -> None:
    """A long text given as the query may name more periods than one SQL statement can hold."""
    app.conversations.remember_conversation(parse_messages(chat("mine", range(1, 13))), "mine", "a")
    dates = [
        f"{year}-{month:02d}-{day:02d}"
        for year in range(2013, 2025)
        for month in range(1, 13)
        for day in range(1, 29)
    ]
    query = "Where did Ana go hiking on " + ", ".join(reversed(dates)) + "?"
    assert len(when.periods_in(query, datetime.now(UTC))) > 4000
    found = app.memory.recall(query, limit=3, namespace="mine")
    assert found.memories and "hiking" in found.memories[0].content


def test_dates_without_a_year_search_the_years_of_the_store_whatever_its_stamps(app: App) -> None:
    """Metadata may stamp a note with anything: it is the user's, and no time of the memory
    (a number once crashed every dated question). Year 1850 or 9999 given as when a memory
    happened would make "on May 1" hundreds of periods: only years a question can name count."""
    turns = [
        {"speaker": "Ana", "text": "I planted tulips.", "timestamp": "2023-05-01T10:00:00Z"},
        {"speaker": "Ana", "text": "I painted the fence.", "timestamp": "2025-02-01T10:00:00Z"},
    ]
    app.conversations.remember_conversation(parse_messages(turns), "garden", "g")
    for stamp in [5, "soon", "0001-01-01T00:00:00+01:00"]:
        app.memory.remember(
            MemoryDraft(
                f"Ana: a note stamped {stamp!r}",
                namespace="garden",
                metadata={"conversation": "odd", "timestamp": stamp},
            )
        )
        with pytest.raises(InvalidInputError, match="occurred_at"):
            app.memory.remember(MemoryDraft("Ana: odd", namespace="garden", occurred_at=stamp))  # type: ignore[arg-type]
    for stamp in ["1850-06-01T00:00:00Z", "9999-12-31T23:59:59Z"]:
        app.memory.remember(
            MemoryDraft(
                f"Ana: a note of {stamp}",
                namespace="garden",
                metadata={"timestamp": stamp},
                occurred_at=stamp,
            )
        )
    found = app.memory.recall("What did Ana plant on May 1?", limit=1, namespace="garden")
    assert found.memories[0].content == "Ana: I planted tulips."
    with app.db.locked() as conn:
        # From the turns' years to this year's (the notes without a time of their own): 1850
        # and 9999 lie outside the years a question can name.
        assert timeline.years(conn) == list(range(2023, datetime.now(UTC).year + 1))
    app.memory.forget(namespace="garden")
    with app.db.locked() as conn:
        assert timeline.years(conn) == []

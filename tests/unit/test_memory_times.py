"""The in-memory mirror of when memories happened answers what the SQL lookups answer, follows
every write, and recall ranks dated questions the same with it and without it."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from loci.app import App
from loci.conversations.messages import parse_messages
from loci.errors import InvalidInputError
from loci.memory.models import MemoryDraft
from loci.search import hybrid, when
from loci.search.filters import compile_filter
from loci.search.signals import DEFAULT
from loci.storage import timeline
from loci.storage.timeline import Span


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


def seconds(spans: list[Span]) -> list[tuple[float, float]]:
    return [(start.timestamp(), end.timestamp()) for start, end in spans]


def agree(app: App) -> int:
    """Assert the mirror answers as SQL does, for every memory and several filters; returns
    how many memories fall in the spans over all filters."""
    sync = app.engine.sync
    sync.refresh()
    found = 0
    with app.engine.db.locked() as conn:
        seqs = [row[0] for row in conn.execute("SELECT seq FROM memories").fetchall()]
        assert app.engine.indexes.times.of([*seqs, 10**9]) == timeline.times_of(conn, seqs)
        for namespaces in (None, frozenset({"mine"}), frozenset({"mine", "theirs"})):
            compiled = compile_filter(
                {"namespace": {"in": sorted(namespaces)}} if namespaces else None
            )
            expected = timeline.seqs_within(conn, SPANS, compiled.sql, compiled.params, 1000)
            mirrored = app.engine.indexes.times.within(seconds(SPANS), namespaces, 1000)
            assert sorted(mirrored.tolist()) == sorted(expected.tolist())
            found += mirrored.shape[0]
    return found


def test_it_answers_as_sql_and_follows_writes(app: App, second_app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat("mine", range(1, 13))), "mine", "a")
    app.conversations.remember_conversation(
        parse_messages(chat("theirs", range(1, 7))), "theirs", "b"
    )
    app.memory.remember(MemoryDraft("A plain note, timed when it was stored", namespace="mine"))
    first = agree(app)
    assert first > 0
    # Another process moves a turn into a period, writes a bad timestamp and deletes a turn.
    with second_app.engine.db.write() as conn:
        conn.execute(
            "UPDATE memories SET metadata = json_set(metadata, '$.timestamp', "
            "'2024-03-03T00:00:00Z') WHERE content LIKE '%month 6 mine%'"
        )
        conn.execute(
            "UPDATE memories SET metadata = json_set(metadata, '$.timestamp', 'soon') "
            "WHERE content LIKE '%month 2 mine%'"
        )
        conn.execute("DELETE FROM memories WHERE content LIKE '%month 3 theirs%'")
    second_app.engine.sync.note_own_write()
    # Counted under each filter that admits it: month 6 mine joins (+3), month 2 mine leaves
    # (-3), month 3 theirs is gone (-2: no filter, both namespaces).
    assert agree(app) == first - 2
    app.conversations.remember_conversation(
        parse_messages(chat("mine", range(11, 12), 20)), "mine", "c"
    )
    assert agree(app) == first + 1  # a new turn in November: +3
    app.catalog.namespaces("rename", "theirs", "other")
    assert agree(app) < first + 1  # "theirs" is empty now; the rest still agrees with SQL


def test_the_earliest_are_kept_when_too_many_fall_in_the_periods(app: App) -> None:
    app.conversations.remember_conversation(
        parse_messages(chat("mine", range(12, 0, -1))), "mine", "a"
    )
    app.engine.sync.refresh()
    earliest = app.engine.indexes.times.within(seconds(SPANS), None, 2)
    with app.engine.db.locked() as conn:
        times = timeline.times_of(conn, earliest.tolist())
    assert [datetime.fromtimestamp(times[s], UTC).month for s in earliest.tolist()] == [2, 3]


def test_a_dated_question_ranks_the_same_with_and_without_the_mirrors(app: App) -> None:
    app.conversations.remember_conversation(parse_messages(chat("mine", range(1, 13))), "mine", "a")
    question = "Where did Ana go hiking in March 2024?"
    answer = app.memory.recall(question, limit=5, namespace="mine")
    assert "month 3 mine" in answer.memories[0].content
    vector = app.engine.embed([question])[0]
    found = hybrid.Candidates(
        vector=app.engine.indexes.vectors.search(vector, 50),
        keyword={},
        periods=when.periods_in(question, datetime.now(UTC), [2024]),
    )
    assert found.periods
    mirrored = hybrid.Context(
        app.engine.db, app.engine.indexes.vectors, app.engine.indexes.times, None
    )
    with_mirrors = list(hybrid.rank(mirrored, vector, found, DEFAULT))
    by_sql = hybrid.Context(app.engine.db, app.engine.indexes.vectors, None, None)
    without = list(hybrid.rank(by_sql, vector, found, DEFAULT))
    assert [r.key for r in with_mirrors] == [r.key for r in without]
    assert np.allclose([r.score for r in with_mirrors], [r.score for r in without])


def test_dates_without_a_year_search_the_years_of_the_store_whatever_its_stamps(app: App) -> None:
    """Metadata may stamp a note with anything: it is the user's, and no time of the memory
    (a number once crashed every dated question). Year 1850 or 9999 given as when a memory
    happened would make "on May 1" hundreds of periods: the years searched are clamped."""
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
    times = app.engine.indexes.times
    assert times.years() == list(range(1900, 2100))  # 1850 and 9999, clamped
    app.memory.forget(filters={"metadata.timestamp": {"in": ["1850-06-01T00:00:00Z"]}})
    app.memory.forget(filters={"metadata.timestamp": "9999-12-31T23:59:59Z"})
    app.engine.sync.refresh()
    # From the turns' years to this year's: the notes without a time of their own.
    assert times.years() == list(range(2023, datetime.now(UTC).year + 1))
    app.memory.forget(namespace="garden")
    app.engine.sync.refresh()
    assert times.years() == []


def test_many_stamps_read_at_once_as_one_by_one() -> None:
    """The numpy pass over stamps in the stored form gives `seconds_of`'s answers exactly, and
    leaves every other stamp (or a batch numpy refuses) to it."""
    stored = [
        "2026-11-23T19:13:32.668300Z",
        "0001-01-01T00:00:00.000000Z",
        "9999-12-31T23:59:59.999999Z",
        "1969-12-31T23:59:59.999999Z",  # before the epoch
    ]
    others = [
        "0000-01-01T00:00:00.000000Z",  # numpy reads year 0; datetime does not
        "2024-03-01T18:00:00+01:00",
        "2024-03-01",
        "2024-03-01 18:00:00.000000Z",
        "NaT",
        "not a time",
        None,
        17,
    ]
    refused = "2026-02-30T00:00:00.000000Z"  # stored form, but no such day
    for stamps in (stored, [*stored, *others], others, [*stored, refused, *others], []):
        expected = np.array([timeline.seconds_of(stamp) for stamp in stamps], dtype=np.float64)
        np.testing.assert_array_equal(timeline.seconds_of_all(stamps), expected)
    assert not np.isnan(timeline.seconds_of_all(stored)).any()

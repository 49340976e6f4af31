"""Dates named in recall queries: the phrases read, the periods they give, and closeness."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from loci.engine.search.when import (
    EARLY,
    LATE,
    Period,
    closeness,
    closeness_of,
    names_a_time,
    periods_in,
    search_bounds,
)

NOW = datetime(2026, 11, 22, 15, 30, tzinfo=UTC)


def days(start: str, end: str) -> Period:
    return Period(
        datetime.fromisoformat(start + "T00:00+00:00"), datetime.fromisoformat(end + "T00:00+00:00")
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what did we ship on 2023-05-03?", [days("2023-05-03", "2023-05-04")]),
        ("What did Gina find on 1 February, 2023?", [days("2023-02-01", "2023-02-02")]),
        ("Who called on May 3rd, 2023", [days("2023-05-03", "2023-05-04")]),
        ("the movie Tim watched on 8th December, 2023", [days("2023-12-08", "2023-12-09")]),
        ("the 3rd of June 2023", [days("2023-06-03", "2023-06-04")]),
        ("What setback did Melanie face in October 2023?", [days("2023-10-01", "2023-11-01")]),
        ("plans for December 2023", [days("2023-12-01", "2024-01-01")]),
        ("what happened in 2024", [days("2024-01-01", "2025-01-01")]),
        ("Where was Tim in the week before 16 November 2023?", [days("2023-11-09", "2023-11-17")]),
        ("the week after 1 March 2024", [days("2024-03-01", "2024-03-09")]),
    ],
)
def test_dated_phrases_give_their_period(query: str, expected: list[Period]) -> None:
    assert names_a_time(query)
    assert periods_in(query, NOW) == expected


def test_only_the_words_just_before_a_date_widen_it() -> None:
    """ "the week before" widens the date it precedes; a date further on, or after "midweek
    before", keeps its own day (each date looks only at the few words before it)."""
    query = "the week before 16 November 2023, and much later, " + "x " * 40 + "on 3 May 2023"
    assert periods_in(query, NOW) == [
        days("2023-11-09", "2023-11-17"),
        days("2023-05-03", "2023-05-04"),
    ]
    assert periods_in("the midweek before 16 November 2023", NOW) == [
        days("2023-11-16", "2023-11-17")
    ]


def test_a_long_query_full_of_dates_reads_each_once() -> None:
    query = ("in May 2023 " * 5000)[:60_000]  # the longest query recall accepts is 64 KiB
    assert periods_in(query, NOW) == [days("2023-05-01", "2023-06-01")]


def test_a_date_without_a_year_falls_in_each_year_of_the_store() -> None:
    assert periods_in("When did Melanie go camping in June?", NOW, [2022, 2023]) == [
        days("2022-06-01", "2022-07-01"),
        days("2023-06-01", "2023-07-01"),
    ]
    assert periods_in("the party on June 3", NOW, [2023]) == [days("2023-06-03", "2023-06-04")]
    # With no years given (an empty store), the current year stands in.
    assert periods_in("during March", NOW) == [days("2026-03-01", "2026-04-01")]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what did I say today", days("2026-11-22", "2026-11-23")),
        ("the bug from yesterday", days("2026-11-21", "2026-11-22")),
        ("decisions made last week", days("2026-11-15", "2026-11-23")),
        ("this week's meetings", days("2026-11-16", "2026-11-23")),
        ("goals this month", days("2026-11-01", "2026-11-23")),
        ("everything this year", days("2026-01-01", "2026-11-23")),
        ("3 days ago", days("2026-11-19", "2026-11-20")),
        ("two weeks ago", days("2026-11-05", "2026-11-09")),
        ("a month ago", days("2026-10-07", "2026-10-23")),
    ],
)
def test_relative_phrases_count_back_from_now(query: str, expected: Period) -> None:
    assert periods_in(query, NOW) == [expected]


@pytest.mark.parametrize(
    "query",
    [
        "what editor does the user prefer?",
        "May I ask which database runs in staging?",  # "May" alone is not a month
        "the march of the penguins",
        "on 31 June 2023",  # not a date
        "order 2023 units",  # a bare number is not a year
        "ticket 2023-13-45",
    ],
)
def test_phrases_that_name_no_period(query: str) -> None:
    assert periods_in(query, NOW, [2023]) == []


def test_the_fast_precheck_passes_every_dated_query_and_skips_plain_ones() -> None:
    assert not names_a_time("which database runs in staging")
    assert names_a_time("what did we decide 3 days ago")


def test_closeness_is_one_inside_and_fades_after() -> None:
    period = days("2023-05-03", "2023-05-04")
    assert closeness(datetime(2023, 5, 3, 12, tzinfo=UTC), [period]) == 1.0
    assert closeness(datetime(2023, 5, 2, 12, tzinfo=UTC), [period]) == 1.0  # a day's grace
    assert closeness(datetime(2023, 5, 1, 12, tzinfo=UTC), [period]) == 0.0
    told_later = datetime(2023, 5, 4, tzinfo=UTC) + timedelta(days=3, hours=12)
    assert closeness(told_later, [period]) == pytest.approx(0.5)
    assert closeness(datetime(2023, 5, 20, tzinfo=UTC), [period]) == 0.0
    assert search_bounds(period) == (
        datetime(2023, 5, 2, tzinfo=UTC),
        datetime(2023, 5, 11, tzinfo=UTC),
    )


def test_closeness_of_many_moments_is_closeness_of_each() -> None:
    periods = [days("2023-05-03", "2023-05-04"), days("2023-05-06", "2023-05-08")]
    moments = [datetime(2023, 4, 30, tzinfo=UTC) + timedelta(hours=7 * n) for n in range(80)]
    seconds = np.array([moment.timestamp() for moment in moments] + [np.nan])
    expected = [closeness(moment, periods) for moment in moments] + [0.0]
    assert closeness_of(seconds, periods).tolist() == pytest.approx(expected, abs=1e-12)
    assert 0.0 < min(v for v in expected if v > 0) < 1.0  # the fading part is exercised


def test_closeness_of_overlapping_periods_matches_a_pass_per_period() -> None:
    # The sorted pass must give what judging each period in turn gives, bit for bit.
    rng = np.random.default_rng(7)
    base = datetime(2023, 1, 1, tzinfo=UTC)
    periods = []
    for start_hour, length_hours in zip(
        rng.integers(0, 24 * 60, 300).tolist(), rng.integers(1, 24 * 40, 300).tolist(), strict=True
    ):
        start = base + timedelta(hours=start_hour)
        periods.append(Period(start, start + timedelta(hours=length_hours)))
    seconds = rng.uniform(base.timestamp() - 86400 * 10, base.timestamp() + 86400 * 120, 2000)
    seconds[::97] = np.nan
    ends = [period.end.timestamp() for period in periods]
    seconds[1::89] = ends[: len(seconds[1::89])]  # exactly at an end: fading, not inside
    expected = np.zeros(seconds.shape[0])
    early, late = EARLY.total_seconds(), LATE.total_seconds()
    for period in periods:
        start, end = period.start.timestamp(), period.end.timestamp()
        fading = (seconds >= end) & (seconds < end + late)
        expected[fading] = np.maximum(expected[fading], 1.0 - (seconds[fading] - end) / late)
        expected[(seconds >= start - early) & (seconds < end)] = 1.0
    got = closeness_of(seconds, periods)
    assert got.tolist() == expected.tolist()
    assert (got == 1.0).any() and (got == 0.0).any() and ((got > 0) & (got < 1)).any()
    assert closeness_of(seconds, []).tolist() == [0.0] * seconds.shape[0]

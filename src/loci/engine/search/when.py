"""Times named in a recall query ("on 3 June, 2023", "in May", "last week"), as periods.

Recall favours memories from the periods a question names: a memory's time is when its message
was sent (conversation turns) or when it was stored. The rules are plain English date phrases,
no language model:

- a day: ``2023-06-03``, ``3 June 2023``, ``June 3rd, 2023``, ``3 June`` / ``June 3`` (any year);
  ``the week before <day>`` and ``the week after <day>`` widen it to that week;
- a month: ``June 2023``; ``in June`` (also during / of / since / until / by / early / late /
  mid / beginning of / end of) for June of any year;
- a year: ``in 2023`` (also during / of / since / until / by / from / throughout / around);
- relative to now: today, yesterday, this / last / past week, weekend, month or year, and
  ``3 days ago`` (days, weeks, months, years; a number or a word from one to ten).

Periods without a year stand for that date in each year the store spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import numpy as np
import numpy.typing as npt

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
#: A memory up to this long before a period counts as inside it (time zones, late-night talk).
EARLY = timedelta(days=1)
#: After a period, closeness falls to 0 over this long: events are often told days later.
LATE = timedelta(days=7)

FloatArray = npt.NDArray[np.float64]

_MONTH = r"(" + "|".join(MONTHS) + r")"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d\d)"
_ISO = re.compile(r"\b((?:19|20)\d\d)-(\d{1,2})-(\d{1,2})\b")
_DAY_MONTH = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\b(?:,?\s+{_YEAR}\b)?", re.IGNORECASE)
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?:,?\s+{_YEAR}\b)?", re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE)
_MONTH_ALONE = re.compile(
    rf"\b(?:in|during|of|since|until|by|early|late|mid|beginning of|end of)\s+{_MONTH}\b",
    re.IGNORECASE,
)
_YEAR_ALONE = re.compile(
    rf"\b(?:in|during|of|since|until|by|from|throughout|around)\s+{_YEAR}\b", re.IGNORECASE
)
#: How far before a date `_WEEK_AROUND` looks (its words, with room for spaces).
AROUND_REACH = 64
_WEEK_AROUND = re.compile(r"\b(?:the\s+)?(?:week|weekend)\s+(before|after)\s*$", re.IGNORECASE)
_RELATIVE = re.compile(
    r"\b(today|yesterday|(?:this|last|past)\s+(?:week|weekend|month|year))\b", re.IGNORECASE
)
_AGO = re.compile(
    rf"\b(\d{{1,3}}|a|an|{'|'.join(NUMBER_WORDS)})\s+(day|week|month|year)s?\s+ago\b",
    re.IGNORECASE,
)
#: Cheap test run before any parsing: most queries name no time at all.
_ANY = re.compile(
    rf"\d{{4}}|{_MONTH}|today|yesterday|\b(?:week|weekend|month|year)\b|\bago\b", re.IGNORECASE
)


@dataclass(frozen=True)
class Period:
    """A span of time, UTC: `start` inclusive, `end` exclusive."""

    start: datetime
    end: datetime


def names_a_time(query: str) -> bool:
    """Whether the query may name a time (a fast pre-check; `periods_in` decides)."""
    return _ANY.search(query) is not None


def periods_in(query: str, now: datetime, years: Iterable[int] = ()) -> list[Period]:
    """The periods a query names. `years`: where dates without a year may fall (else now's)."""
    spans = sorted(set(years)) or [now.year]
    found: list[Period] = []
    text = query
    for pattern, read in (
        (_ISO, _iso_day),
        (_DAY_MONTH, _day_month),
        (_MONTH_DAY, _month_day),
        (_MONTH_YEAR, _month_year),
        (_MONTH_ALONE, _month_alone),
        (_YEAR_ALONE, _year_alone),
    ):
        for match in pattern.finditer(text):
            periods = read(match.groups(), spans)
            found += _widened(periods, text, match.start())
        text = pattern.sub(" ", text)  # a phrase read once is not read again as a shorter one
    found += _relative(text, now)
    return list(dict.fromkeys(found))


def closeness(moment: datetime, periods: Sequence[Period]) -> float:
    """1 inside a period (from EARLY before it), falling to 0 over LATE after it; else 0."""
    best = 0.0
    for period in periods:
        if period.start - EARLY <= moment < period.end:
            return 1.0
        if period.end <= moment < period.end + LATE:
            best = max(best, 1.0 - (moment - period.end) / LATE)
    return best


def closeness_of(seconds: FloatArray, periods: Sequence[Period]) -> FloatArray:
    """:func:`closeness` of many moments at once, given as POSIX seconds (NaN: no time, 0).

    One sorted pass over the periods rather than one pass over the moments per period: a
    pasted log can name thousands of dates.
    """
    if not periods:
        return np.zeros(seconds.shape[0])
    early, late = EARLY.total_seconds(), LATE.total_seconds()
    opens = np.array([period.start.timestamp() for period in periods]) - early
    ends = np.array([period.end.timestamp() for period in periods])
    moments = np.where(np.isnan(seconds), -np.inf, seconds)  # before every period: 0
    # Inside: among the periods open at or before a moment, the latest end is after it.
    by_opening = np.argsort(opens, kind="stable")
    latest_end = np.maximum.accumulate(ends[by_opening])
    opened = np.searchsorted(opens[by_opening], moments, side="right")
    inside = (opened > 0) & (latest_end[np.maximum(opened - 1, 0)] > moments)
    # Fading: the closeness after the nearest end at or before a moment is the best of all.
    sorted_ends = np.sort(ends)
    ended = np.searchsorted(sorted_ends, moments, side="right")
    last_end = sorted_ends[np.maximum(ended - 1, 0)]
    fading = (ended > 0) & (moments < last_end + late)
    best: FloatArray = np.where(fading, 1.0 - (moments - last_end) / late, 0.0)
    best[inside] = 1.0
    return best


def search_bounds(period: Period) -> tuple[datetime, datetime]:
    """The span of memories with any closeness to `period`."""
    return period.start - EARLY, period.end + LATE


# -- readers: regex groups -> periods -----------------------------------------------------------


def _iso_day(groups: Sequence[str | None], years: Sequence[int]) -> list[Period]:
    return _days(int(_text(groups[0])), int(_text(groups[1])), int(_text(groups[2])))


def _day_month(groups: Sequence[str | None], years: Sequence[int]) -> list[Period]:
    return _day_in_years(groups[0], groups[1], groups[2], years)


def _month_day(groups: Sequence[str | None], years: Sequence[int]) -> list[Period]:
    return _day_in_years(groups[1], groups[0], groups[2], years)


def _day_in_years(
    day: str | None, month: str | None, year: str | None, years: Sequence[int]
) -> list[Period]:
    """The day in the year named, or in each of `years` when none is."""
    spans = [int(year)] if year else years
    return [p for y in spans for p in _days(y, _month(month), int(_text(day)))]


def _month_year(groups: Sequence[str | None], years: Sequence[int]) -> list[Period]:
    return [_month_period(int(_text(groups[1])), _month(groups[0]))]


def _month_alone(groups: Sequence[str | None], years: Sequence[int]) -> list[Period]:
    return [_month_period(year, _month(groups[0])) for year in years]


def _year_alone(groups: Sequence[str | None], years: Sequence[int]) -> list[Period]:
    year = int(_text(groups[0]))
    return [Period(_at(date(year, 1, 1)), _at(date(year + 1, 1, 1)))]


UNIT_DAYS = {"day": 1, "week": 7, "weekend": 7, "month": 31, "year": 366}


def _relative(text: str, now: datetime) -> list[Period]:
    today = now.astimezone(UTC).date()
    found: list[Period] = []
    for match in _RELATIVE.finditer(text):
        words = match.group(1).lower().split()
        found.append(_relative_span(words[0], words[-1], today))
    for match in _AGO.finditer(text):
        count, unit = match.group(1).lower(), match.group(2).lower()
        width = UNIT_DAYS[unit]
        back = today - timedelta(days=_number(count) * width)
        # "3 weeks ago" is roughly then: half a unit either side.
        found.append(Period(_at(back - timedelta(days=width // 2)), _at(back + timedelta(1))))
    return found


def _relative_span(which: str, unit: str, today: date) -> Period:
    tomorrow = _at(today + timedelta(1))
    if which == "today":
        return Period(_at(today), tomorrow)
    if which == "yesterday":
        return Period(_at(today - timedelta(1)), _at(today))
    if which == "this":
        starts = {"month": today.replace(day=1), "year": date(today.year, 1, 1)}
        return Period(_at(starts.get(unit, today - timedelta(days=today.weekday()))), tomorrow)
    # last / past: the rolling span up to today, forgiving about calendar edges.
    return Period(_at(today - timedelta(days=UNIT_DAYS[unit])), tomorrow)


def _widened(periods: list[Period], text: str, at: int) -> list[Period]:
    """`the week before <day>` / `the week after <day>` (ending at `at`): the seven days on
    that side."""
    # Only the words just before: searching all the text before each date made a long query
    # full of dates quadratic.
    side = _WEEK_AROUND.search(text, max(0, at - AROUND_REACH), at)
    if side is None:
        return periods
    week = timedelta(days=7)
    if side.group(1).lower() == "before":
        return [Period(p.start - week, p.end) for p in periods]
    return [Period(p.start, p.end + week) for p in periods]


def _days(year: int, month: int, day: int) -> list[Period]:
    try:
        start = date(year, month, day)
    except ValueError:  # 31 June, month 13: not a date, so not a period
        return []
    return [Period(_at(start), _at(start + timedelta(1)))]


def _month_period(year: int, month: int) -> Period:
    following = date(year + month // 12, month % 12 + 1, 1)
    return Period(_at(date(year, month, 1)), _at(following))


def _month(name: str | None) -> int:
    return MONTHS.index(_text(name).lower()) + 1


def _number(text: str) -> int:
    if text in ("a", "an"):
        return 1
    return int(text) if text.isdigit() else NUMBER_WORDS.index(text) + 1


def _text(value: str | None) -> str:
    return value or ""


def _at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)

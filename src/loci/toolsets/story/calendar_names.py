"""Names of days, feasts and months: a date is no one, though NER may take "July" of a
diary's "26 July" for a person."""

from __future__ import annotations

from collections.abc import Collection

from loci.toolsets.story.address import CALENDAR, MONTHS


def is_a_day_by_name(written: str) -> bool:
    """Whether the name is a day's: "Day" or "Eve" after a possessive or a feast ("St.
    Tatiana's Day", "New Year's Day", "Christmas Eve"), not a surname ("Doris Day")."""
    words = written.split()
    if len(words) < 2 or words[-1].lower() not in ("day", "eve"):
        return False
    before = words[-2].lower()
    return before.endswith(("'s", "\u2019s", "s'", "s\u2019")) or before in CALENDAR


def is_a_month_alone(
    written: str, speaks: bool, called_out: bool, family_names: Collection[str]
) -> bool:
    """Whether the name is a month alone that no one answers to: one that neither speaks
    again and again nor is called out (May Chester, "said May", is someone), and that is no
    family's name of the story's people ("March", of Jo March)."""
    month = written.lower()
    return month in MONTHS and month not in family_names and not (speaks or called_out)

"""Comparing keyword rankings of two engines."""

from __future__ import annotations

import math

import pytest


def same(found, expected):
    """The same scores, and the same documents in the same order but among equal scores (the
    engines add a document's terms in different orders, so equal scores may differ in their
    last bit), and for those tied with the last one kept (which of them is cut is a toss)."""
    assert [s for _, s in found] == pytest.approx([s for _, s in expected], rel=1e-12)

    def ranked(rows):
        last = rows[-1][1] if rows else 0.0
        return sorted(
            (round(score, 9), doc)
            for doc, score in rows
            if not math.isclose(score, last, rel_tol=1e-12)
        )

    assert ranked(found) == ranked(expected)

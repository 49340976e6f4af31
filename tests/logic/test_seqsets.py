"""Seq membership answers what numpy's isin answers, by table or, for wide ranges, by sorting."""

from __future__ import annotations

import numpy as np

from loci.storage.indexes import seqsets
from loci.storage.indexes.seqsets import among


def test_among_answers_as_isin_does() -> None:
    rng = np.random.default_rng(3)
    seqs = np.unique(rng.integers(1, 5000, 800))
    values = rng.integers(-10, 6000, 3000)
    assert among(values, seqs).tolist() == np.isin(values, seqs).tolist()
    assert among(values, seqs).any() and not among(values, seqs).all()
    empty = np.zeros(0, np.int64)
    assert among(values, empty).tolist() == [False] * 3000
    assert among(empty, seqs).shape == (0,)


def test_among_sorts_when_the_range_is_too_wide_for_a_table(monkeypatch) -> None:
    monkeypatch.setattr(seqsets, "TABLE_LIMIT", 10)
    seqs = np.array([5, 10**12], dtype=np.int64)
    values = np.array([5, 6, 10**12, -1], dtype=np.int64)
    assert among(values, seqs).tolist() == [True, False, True, False]

"""Picking the positions of the best scores of a search, faster than sorting them all."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

KeyArray = npt.NDArray[np.int64]

#: From this many scores on, the best are picked with a threshold read off a sample of them.
SAMPLE_FROM = 8_192
SAMPLE_SIZE = 4096


def best_positions(scores: npt.NDArray[np.float32], count: int) -> KeyArray:
    """Positions of at least the `count` highest scores, with every score equal to the
    lowest of them (a few more when scores tie or the threshold lands low), in increasing
    order.

    Ties are kept whole so that which of two equal scores wins is the caller's to decide (by
    position), whatever the partition chose. A threshold read off a strided sample finds them
    in one comparison pass, cheaper than a partition.
    When the sample misjudges, a partition of every score decides.
    """
    size = scores.shape[0]
    if count >= size:
        return np.arange(size)
    if size < SAMPLE_FROM:
        return _at_least(scores, count)
    step = size // SAMPLE_SIZE
    sample = scores[::step]
    # Aim a little wide, so that the sample's error rarely leaves fewer than `count` above.
    rank = min(sample.shape[0] - 1, int(count / step * 1.5) + 1)
    threshold = np.partition(sample, sample.shape[0] - 1 - rank)[sample.shape[0] - 1 - rank]
    chosen = np.flatnonzero(scores >= threshold)
    if chosen.shape[0] < count or chosen.shape[0] > 4 * count + SAMPLE_SIZE:
        return _at_least(scores, count)
    return chosen


def _at_least(scores: npt.NDArray[np.float32], count: int) -> KeyArray:
    """Every position whose score is at least the `count`-th highest."""
    size = scores.shape[0]
    threshold = np.partition(scores, size - count)[size - count]
    return np.flatnonzero(scores >= threshold)

"""Membership of memory seqs in a set of seqs: the test a filtered search makes per row.

numpy's `isin` picks a method by the sizes involved: for a few hundred keyword matches tested
against the many seqs a filter admits it sorts both, where a lookup table over the seqs'
range answers at once. Seqs span about as large a range as the store
holds memories, so the table stays small; past `TABLE_LIMIT` the sort is used after all.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

#: The widest range of seqs looked up by table (a byte per seq in it).
TABLE_LIMIT = 50_000_000


def among(values: npt.NDArray[np.int64], seqs: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Whether each of `values` is one of `seqs`."""
    if values.shape[0] == 0 or seqs.shape[0] == 0:
        return np.zeros(values.shape[0], dtype=np.bool_)
    if int(seqs.max()) - int(seqs.min()) > TABLE_LIMIT:
        return np.isin(values, seqs)
    return np.isin(values, seqs, kind="table")

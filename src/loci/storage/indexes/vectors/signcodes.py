"""Sign codes: one bit per dimension, which let large indexes shortlist rows before exact scoring.

Each stored vector is kept, beside its float32 row, as the signs of its centred components: 48
bytes for a 384-d vector, 4.8 MB for 100k. The Hamming distance between a row's code and the
query's code ranks rows roughly as their cosine does, and a Hamming scan reads a thirtieth of
what a float32 scan reads (see `scan_kernels`). The shortlisted rows are then scored exactly,
so results carry exact similarities; a shortlist of 3 % of the rows keeps nearly all of the
exact top 10 (`tests/logic/test_vector_index.py` holds it to that).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatMatrix = npt.NDArray[np.float32]
ByteCodes = npt.NDArray[np.uint8]
Distances = npt.NDArray[np.uint16]
KeyArray = npt.NDArray[np.int64]

#: The centre is the mean of at most this many rows.
FIT_SAMPLE = 20_000
#: Rows encoded at a time (bounds the temporary memory of a bulk encode).
ENCODE_CHUNK = 8192
#: Distances read to estimate the shortlist's threshold.
SAMPLE_SIZE = 4096


@dataclass(frozen=True)
class SignCodes:
    """Encode vectors as the signs of (vector - centre), packed in bytes (8 bits to a byte)."""

    centre: FloatMatrix

    @classmethod
    def fit(cls, vectors: FloatMatrix, seed: int = 0) -> SignCodes:
        """Centre on the mean of `vectors` (of a sample when there are many), so that each bit
        splits the rows about evenly: MiniLM embeddings share a large common component."""
        if vectors.shape[0] > FIT_SAMPLE:
            rows = np.random.default_rng(seed).choice(vectors.shape[0], FIT_SAMPLE, replace=False)
            vectors = vectors[np.sort(rows)]
        return cls(centre=vectors.mean(axis=0, dtype=np.float64).astype(np.float32))

    @property
    def code_bytes(self) -> int:
        """Bytes per code: one bit per dimension, padded to whole 64-bit words."""
        return (int(self.centre.shape[0]) + 63) // 64 * 8

    @property
    def excluded(self) -> int:
        """A distance larger than any real one, for rows a filter excludes."""
        return self.code_bytes * 8 + 1

    def encode(self, vectors: FloatMatrix) -> ByteCodes:
        """Codes of `vectors`, one row of `code_bytes` bytes per vector."""
        codes = np.zeros((vectors.shape[0], self.code_bytes), dtype=np.uint8)
        for start in range(0, vectors.shape[0], ENCODE_CHUNK):
            chunk = vectors[start : start + ENCODE_CHUNK]
            bits = np.packbits(chunk > self.centre, axis=1)
            codes[start : start + chunk.shape[0], : bits.shape[1]] = bits
        return codes


def shortlist(distances: Distances, count: int, excluded: int) -> KeyArray:
    """Positions of at least the `count` smallest distances below `excluded` (every row at the
    cut-off distance is kept, so ties can add a few), in increasing position order.

    The cut-off is read off a strided sample's histogram, aiming a little wide; if the sample
    misjudges, so that too few rows pass or far too many, the full histogram decides.
    """
    size = distances.shape[0]
    step = max(1, size // SAMPLE_SIZE)
    cutoff = _cutoff(distances[::step], count / step * 1.2)
    chosen = np.flatnonzero(distances <= cutoff)
    if chosen.shape[0] < count or chosen.shape[0] > 4 * count + SAMPLE_SIZE:
        chosen = np.flatnonzero(distances <= _cutoff(distances, count))
    return chosen[distances[chosen] < excluded]


def _cutoff(distances: Distances, count: float) -> int:
    """The smallest distance d such that at least `count` of `distances` are <= d."""
    cumulative = np.cumsum(np.bincount(distances))
    return int(min(np.searchsorted(cumulative, count), cumulative.shape[0] - 1))

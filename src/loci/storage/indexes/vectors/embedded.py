"""The embedded vector index (see `protocol` for what loci needs of one).

The index is derived data: SQLite holds every vector, and the index can always be rebuilt from
it. Keys are the integer `seq` of memory rows; each vector also carries its namespace so the
commonest filter costs a vectorised comparison rather than a database query.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from loci.heap import release_free_memory
from loci.storage.indexes.name_codes import NameCodes
from loci.storage.indexes.seqsets import among
from loci.storage.indexes.vectors.fastscan import FastScanCodes
from loci.storage.indexes.vectors.protocol import Allowed, FloatMatrix, Hit, KeyArray
from loci.storage.indexes.vectors.scan_kernels import (
    CodeTable,
    KernelName,
    NumpyKernel,
    ScanKernel,
    load_kernel,
)
from loci.storage.indexes.vectors.signcodes import SignCodes, shortlist

#: From this many vectors on, filtered searches shortlist rows by their sign codes first: below
#: it a full scan is cheap, and a shortlist of a small index misses too many of the exact top 10.
SHORTLIST_FROM = 20_000
#: Share of the rows shortlisted for exact scoring, and the floor per result asked (a smaller
#: share misses more of the exact top 50; see `benchmarks/`).
SHORTLIST_SHARE = 0.03
SHORTLIST_PER_RESULT = 10
#: From this many vectors on, searches without a filter shortlist rows by their fast-scan codes
#: (see `fastscan`): 6 rows per result asked and at least 300 (the scan costs the same for any
#: of these counts, and scoring a few hundred rows exactly is cheap), unless that is more than a
#: tenth of the rows. Below 4,096 rows a full scan costs no more.
FASTSCAN_FROM = 4096
FASTSCAN_PER_RESULT = 6
FASTSCAN_MIN_CANDIDATES = 300
FASTSCAN_MAX_SHARE = 0.1
#: A filter that admits at most this share of the rows of an index with no sign codes scores
#: them alone rather than scanning every row (gathering a third of the rows costs about what a
#: full scan does).
GATHER_SHARE = 0.3
#: Up to this many scores (a shortlist's), one stable sort of them all picks the top k faster
#: than a partition first.
SORT_ALL_UP_TO = 400


class _Scan(NamedTuple):
    """The scores of a full scan, kept for the similarities of the same query that follow it."""

    query: FloatMatrix  # a copy
    scores: npt.NDArray[np.float32]  # by row
    generation: int  # the index's generation when it ran


class EmbeddedIndex:
    """Cosine search over a float32 matrix in memory: exact similarities always, the exact
    top k below FASTSCAN_FROM rows, and above it the top k of a shortlist (which keeps nearly
    all of the exact top 10; `PlainVectorIndex` scans every row at any size).

    Small indexes scan every row. From FASTSCAN_FROM vectors, a search without a filter
    scores exactly the rows its fast-scan codes shortlist (see `fastscan`; built on first use
    or by `warm`, with faiss's kernel). A filtered search is exact below SHORTLIST_FROM
    vectors. Above it, the 3 % of the admitted rows (at least 10 per result asked) nearest by
    their sign codes are scored exactly (see `signcodes`; the two loops run in a
    `scan_kernels` kernel, faiss's by default), as is an unfiltered search with
    `fast_scan_from=None` or numpy's kernel. Shortlists keep nearly all of the exact top 10;
    `benchmarks/bench_accelerations.py` shows what each saves. Removal swaps the last row into
    the hole, so rows stay dense.
    """

    def __init__(
        self,
        dimensions: int,
        initial_capacity: int = 1024,
        shortlist_from: int = SHORTLIST_FROM,
        kernel: KernelName = "auto",
        fast_scan_from: int | None = FASTSCAN_FROM,
    ) -> None:
        self.dimensions = dimensions
        self._shortlist_from = shortlist_from
        # None: never build fast-scan codes (a process that answers one query: training them
        # costs more than the scans they would save).
        self._fast_scan_from = fast_scan_from
        self._fast: FastScanCodes | None = None
        self._kernel_name: KernelName = kernel
        self._kernel: ScanKernel | None = None
        self._matrix: FloatMatrix = np.zeros((initial_capacity, dimensions), dtype=np.float32)
        self._keys: KeyArray = np.zeros(initial_capacity, dtype=np.int64)
        self._groups = np.zeros(initial_capacity, dtype=np.int32)
        self._namespaces = NameCodes()
        self._position: dict[int, int] = {}
        self._size = 0
        self._rows_in_group: dict[int, int] = {}  # namespace code -> rows
        self._signs: SignCodes | None = None
        self._codes: CodeTable | None = None
        self._fitted_size = 0
        # Bumped by every change of rows, so that a kept scan is never read after one.
        self._generation = 0
        self._last_scan: _Scan | None = None

    def count(self) -> int:
        """Number of vectors indexed."""
        return self._size

    def reserve(self, count: int) -> None:
        """Grow the matrices once to `count` rows, rather than by doubling during a load."""
        if count > self._matrix.shape[0]:
            self._resize(count)

    def clear(self) -> None:
        """Forget every vector (capacity is kept)."""
        self._position.clear()
        self._size = 0
        self._rows_in_group.clear()
        self._generation += 1
        self._drop_codes()
        self._fast = None

    def warm(self) -> None:
        """Build the fast-scan codes now, if searches would use them."""
        self._fast_codes()

    @property
    def fast_scan_codes(self) -> FastScanCodes | None:
        """The fast-scan codes, once a search (or `warm`) has built them."""
        return self._fast

    def upsert(self, keys: Sequence[int], vectors: FloatMatrix, namespaces: Sequence[str]) -> None:
        """Add or replace rows."""
        if vectors.shape != (len(keys), self.dimensions):
            raise ValueError(f"expected {len(keys)} vectors of {self.dimensions} dimensions")
        if self._size + len(keys) >= self._shortlist_from:
            self.kernel()  # loads it (or fails) before anything changes
        self._reserve(self._size + len(keys))
        self._generation += 1
        appended_from = self._size
        rows = np.empty(len(keys), dtype=np.int64)
        for index, (key, namespace) in enumerate(zip(keys, namespaces, strict=True)):
            row = self._position.get(key)
            if row is None:
                row = self._size
                self._position[key] = row
                self._keys[row] = key
                self._size += 1
            else:
                self._count_row(int(self._groups[row]), -1)
            rows[index] = row
            self._groups[row] = self._namespaces.code(namespace)
            self._count_row(int(self._groups[row]), 1)
        self._matrix[rows] = vectors
        self._update_codes(rows)
        self._update_fast(rows, appended_from)

    def delete(self, keys: Sequence[int]) -> None:
        """Remove rows by key, moving the last row into each hole."""
        self._generation += 1
        for key in keys:
            row = self._position.pop(key, None)
            if row is None:
                continue
            self._count_row(int(self._groups[row]), -1)
            last = self._size - 1
            if row != last:
                moved = int(self._keys[last])
                self._matrix[row] = self._matrix[last]
                self._keys[row] = moved
                self._groups[row] = self._groups[last]
                if self._codes is not None:
                    self._codes.move(last, row)
                if self._fast is not None:
                    self._fast.move(last, row)
                self._position[moved] = row
            self._size = last
        if self._fast is not None:
            self._fast.truncate(self._size)

    def get(self, key: int) -> FloatMatrix | None:
        """A copy of the vector stored under `key`."""
        row = self._position.get(key)
        return None if row is None else self._matrix[row].copy()

    def similarities(self, query: FloatMatrix, keys: KeyArray) -> npt.NDArray[np.float64]:
        """Cosine similarity for each key (NaN for keys not indexed)."""
        # map() over dict.get finds the rows at C speed.
        rows = np.fromiter(
            map(self._position.get, keys.tolist(), itertools.repeat(-1)),
            dtype=np.int64,
            count=keys.shape[0],
        )
        result = np.full(keys.shape[0], np.nan)
        known = rows >= 0
        if known.any():
            scanned = self._scanned(query)
            if scanned is not None:
                # A search just scored every row for this query: read them, rather than
                # gather the rows again from cold memory.
                result[known] = scanned[rows[known]]
            else:
                result[known] = np.take(self._matrix, rows[known], axis=0) @ query.reshape(-1)
        return result

    def _scanned(self, query: FloatMatrix) -> npt.NDArray[np.float32] | None:
        """The scores of the last full scan if it was for `query` and no row changed since."""
        scan = self._last_scan
        if scan is None or scan.generation != self._generation:
            return None
        return scan.scores if np.array_equal(scan.query, query) else None

    def search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """Top k by cosine similarity among allowed rows, with exact similarities (of every
        row, or of a shortlist in a large index)."""
        if self._size == 0 or k <= 0:
            return []
        mask = self._mask(allowed)
        rows = self._fast_candidates(query, k) if mask is None else None
        if rows is None:
            rows = self._candidates(query, k, mask)
        if rows is None and mask is not None:
            rows = self._admitted_if_few(mask)
        if rows is None:
            return self._scan(query, k, mask)
        scores = self._products(rows, query)
        return _top_k(scores, self._keys[rows], k)

    def kernel(self) -> ScanKernel:
        """The scan kernel, loaded on first use (faiss is not imported by small stores)."""
        if self._kernel is None:
            self._kernel = load_kernel(self._kernel_name)
        return self._kernel

    def exact_search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """Like :meth:`search` but always a full scan (to measure the shortlist against)."""
        if self._size == 0 or k <= 0:
            return []
        return self._scan(query, k, self._mask(allowed))

    def _scan(self, query: FloatMatrix, k: int, mask: npt.NDArray[np.bool_] | None) -> list[Hit]:
        # A kernel loaded for the codes scans on two threads; a one-command app with no
        # codes does not import faiss, which costs more than it would save.
        kernel = self._kernel if self._size >= FASTSCAN_FROM else None
        scores = (kernel or NumpyKernel()).all_products(self._matrix, self._size, query)
        self._last_scan = _Scan(query.copy(), scores, self._generation)
        if mask is not None:
            # Only the admitted rows compete.
            positions = np.flatnonzero(mask)
            return _top_k(scores[positions], self._keys[positions], k)
        return _top_k(scores, self._keys[: self._size], k)

    def _admitted_if_few(self, mask: npt.NDArray[np.bool_]) -> KeyArray | None:
        """The admitted rows, if scoring them alone beats a full scan (else None)."""
        admitted = np.flatnonzero(mask)
        return admitted if admitted.shape[0] <= self._size * GATHER_SHARE else None

    def _products(self, rows: KeyArray, query: FloatMatrix) -> npt.NDArray[np.float32]:
        """The inner products of `query` with `rows`: in the kernel if it is loaded, else in
        numpy (small indexes do not import faiss)."""
        return (self._kernel or NumpyKernel()).inner_products(self._matrix, rows, query)

    def _fast_candidates(self, query: FloatMatrix, k: int) -> KeyArray | None:
        """The rows the fast-scan codes shortlist, or None (no codes, or too many wanted)."""
        fast = self._fast_codes()
        wanted = max(k * FASTSCAN_PER_RESULT, FASTSCAN_MIN_CANDIDATES)
        if fast is None or wanted > self._size * FASTSCAN_MAX_SHARE:
            return None
        return np.sort(fast.nearest(query, wanted))  # in position order, as `_top_k` wants

    def _candidates(
        self, query: FloatMatrix, k: int, mask: npt.NDArray[np.bool_] | None
    ) -> KeyArray | None:
        """Rows worth scoring exactly, or None to scan every row."""
        if self._signs is None or self._codes is None:
            return None
        wanted = max(k * SHORTLIST_PER_RESULT, int(self._size * SHORTLIST_SHARE))
        admitted = self._size if mask is None else int(np.count_nonzero(mask))
        if admitted <= wanted:
            return None if mask is None else np.flatnonzero(mask)
        query_code = self._signs.encode(query.reshape(1, -1))
        distances = self._codes.distances(query_code, self._size)
        if mask is None:
            return shortlist(distances, wanted, self._signs.excluded)
        # The cut-off is read off a strided sample: among all rows, a mask that repeats with
        # the stride (every other row, every tenth) could leave only excluded rows in it, and
        # every admitted row would be scored (most of a large index, for a broad filter).
        positions = np.flatnonzero(mask)
        return positions[shortlist(distances[positions], wanted, self._signs.excluded)]

    def _update_codes(self, rows: KeyArray) -> None:
        """Keep the sign codes in step; fit their centre (again) as the index grows."""
        if self._size < self._shortlist_from:
            # Small indexes scan every row; codes kept from a larger past would go stale.
            self._drop_codes()
            return
        if self._signs is None or self._codes is None or self._size >= 2 * self._fitted_size:
            self._signs = SignCodes.fit(self._matrix[: self._size])
            self._fitted_size = self._size
            self._codes = self.kernel().table(self._signs.code_bytes, self._matrix.shape[0])
            everything = np.arange(self._size, dtype=np.int64)
            self._codes.write(everything, self._signs.encode(self._matrix[: self._size]))
        else:
            self._codes.write(rows, self._signs.encode(self._matrix[rows]))

    def _fast_codes(self) -> FastScanCodes | None:
        """The fast-scan codes, trained (again) if the index has grown past twice the size
        they were trained at; None while the index is small or they are off."""
        if self._fast_scan_from is None or self._size < self._fast_scan_from:
            return None
        if self._fast is None or self._size >= 2 * self._fast.trained_size:
            self._fast = self.kernel().fast_scan_codes(self._matrix[: self._size])
            release_free_memory()  # training's and encoding's working copies
        return self._fast

    def _update_fast(self, rows: KeyArray, appended_from: int) -> None:
        """Keep built fast-scan codes in step: rewrite the rows that were there, append the
        new ones (a key given twice is read from the matrix, as it ends up)."""
        if self._fast is None:
            return
        rewritten = np.unique(rows[rows < appended_from])
        self._fast.write(rewritten, self._matrix[rewritten])
        self._fast.append(self._matrix[appended_from : self._size])

    def _drop_codes(self) -> None:
        self._signs = None
        self._codes = None
        self._fitted_size = 0

    def _mask(self, allowed: Allowed | None) -> npt.NDArray[np.bool_] | None:
        if allowed is None:
            return None
        mask: npt.NDArray[np.bool_] | None = None
        if allowed.namespaces is not None:
            admitted = self._namespaces.admitted(allowed.namespaces)
            rows = sum(n for code, n in self._rows_in_group.items() if admitted[code])
            # A filter that admits every row (often: one namespace in use) needs no mask.
            if rows < self._size:
                mask = admitted[self._groups[: self._size]]
        if allowed.keys is not None:
            key_mask = among(self._keys[: self._size], allowed.keys)
            mask = key_mask if mask is None else mask & key_mask
        return mask

    def _count_row(self, group: int, change: int) -> None:
        self._rows_in_group[group] = self._rows_in_group.get(group, 0) + change

    def _reserve(self, needed: int) -> None:
        capacity = self._matrix.shape[0]
        if needed <= capacity:
            return
        self._resize(max(needed, capacity * 2))

    def _resize(self, new_capacity: int) -> None:
        matrix = np.zeros((new_capacity, self.dimensions), dtype=np.float32)
        matrix[: self._size] = self._matrix[: self._size]
        keys = np.zeros(new_capacity, dtype=np.int64)
        keys[: self._size] = self._keys[: self._size]
        groups = np.zeros(new_capacity, dtype=np.int32)
        groups[: self._size] = self._groups[: self._size]
        self._matrix, self._keys, self._groups = matrix, keys, groups
        if self._codes is not None:
            self._codes = self._codes.resized(new_capacity, self._size)


def _top_k(scores: npt.NDArray[np.float32], keys: KeyArray, k: int) -> list[Hit]:
    count = min(k, scores.shape[0])
    # Equal scores (the same text stored twice) go to the lowest position: the same rows
    # whether the scores came from a full scan or from a shortlist in position order.
    if scores.shape[0] <= SORT_ALL_UP_TO:
        ordered = np.argsort(-scores, kind="stable")[:count]
    else:
        candidates = best_positions(scores, count)
        ordered = candidates[np.argsort(-scores[candidates], kind="stable")][:count]
    ordered = ordered[np.isfinite(scores[ordered])]
    # tolist() turns the numpy scalars into Python ones in one call, not one call per hit.
    return list(map(Hit._make, zip(keys[ordered].tolist(), scores[ordered].tolist(), strict=True)))


def best_positions(scores: npt.NDArray[np.float32], count: int) -> KeyArray:
    """Positions of every score at least the `count`-th highest, in increasing order.

    Ties are kept whole so that which of two equal scores wins is the caller's to decide (by
    position), whatever the partition chose."""
    size = scores.shape[0]
    if count >= size:
        return np.arange(size)
    threshold = np.partition(scores, size - count)[size - count]
    return np.flatnonzero(scores >= threshold)

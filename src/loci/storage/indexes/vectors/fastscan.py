"""Fast-scan codes: 4-bit product quantisation, which shortlists rows for unfiltered searches.

Each row is kept, beside its float32 row, as 192 four-bit codes (one per pair of dimensions:
96 bytes for a 384-d vector), in faiss's fast-scan layout: blocks of 32 rows whose codes a
SIMD shuffle looks up 32 at a time. A query's approximate inner product with every row then
costs a fraction of a float32 scan, and the shortlisted rows are scored exactly, so results
carry exact similarities. A shortlist of 6 rows per result keeps the exact top 10 for the
benchmark's queries and LoCoMo questions, more of it than the sign codes' shortlist does
(`benchmarks/bench_accelerations.py` shows the time saved).

faiss's fast-scan index takes no filter, so searches with a filter keep the other paths. The
codes are trained on a sample of the rows (2,000 rows and 10 k-means iterations keep as much
of the exact top 50 as larger samples and more iterations), then every row is encoded.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

FloatMatrix = npt.NDArray[np.float32]
KeyArray = npt.NDArray[np.int64]

#: Codes per vector: one per pair of dimensions (for 384-d vectors).
DIMENSIONS_PER_CODE = 2
#: Bits per code: fast-scan needs 4 (16 centroids per pair of dimensions).
CODE_BITS = 4
#: Rows the centroids are trained on, and the k-means iterations.
TRAIN_SAMPLE = 2000
TRAIN_ITERATIONS = 10


class FastScanCodes:
    """The fast-scan codes of an index's rows, kept at the rows' positions.

    Row positions follow the owning index: rows are appended at the end, rewritten in place,
    moved (a delete fills its hole with the last row) and cut off at the end."""

    def __init__(self, faiss: Any, index: Any, trained_size: int) -> None:
        self._faiss = faiss
        self._index = index
        self._packer = index.get_CodePacker()
        self._zero = np.zeros(self._packer.code_size, dtype=np.uint8)
        #: How many rows the index held when the codes were trained.
        self.trained_size = trained_size

    @classmethod
    def trained(cls, faiss: Any, rows: FloatMatrix, seed: int = 0) -> FastScanCodes:
        """Codes trained on a sample of `rows` (float32, one row per vector), holding them all."""
        size, dimensions = rows.shape
        index = faiss.IndexPQFastScan(
            dimensions, dimensions // DIMENSIONS_PER_CODE, CODE_BITS, faiss.METRIC_INNER_PRODUCT
        )
        index.pq.cp.niter = TRAIN_ITERATIONS
        sample = rows
        if size > TRAIN_SAMPLE:
            chosen = np.random.default_rng(seed).choice(size, TRAIN_SAMPLE, replace=False)
            sample = rows[np.sort(chosen)]
        index.train(np.ascontiguousarray(sample, dtype=np.float32))
        codes = cls(faiss, index, size)
        codes.append(rows)
        return codes

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def append(self, vectors: FloatMatrix) -> None:
        """Add rows at the end (positions len(self) onwards)."""
        if vectors.shape[0]:
            # faiss ORs new codes into its blocks: the rows past the end must be zero (see
            # `truncate`).
            self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))

    def write(self, rows: KeyArray, vectors: FloatMatrix) -> None:
        """Rewrite the codes of existing rows."""
        if rows.shape[0] == 0:
            return
        if int(rows.min()) < 0 or int(rows.max()) >= len(self):
            raise IndexError("a row position lies outside the codes")
        codes = self._index.pq.compute_codes(np.ascontiguousarray(vectors, dtype=np.float32))
        blocks = self._blocks()
        for row, code in zip(rows.tolist(), codes, strict=True):
            self._packer.pack_1_c(self._faiss.swig_ptr(code), row, blocks)

    def move(self, source: int, target: int) -> None:
        """Copy the code at `source` to `target`."""
        if not (0 <= source < len(self) and 0 <= target < len(self)):
            raise IndexError("a row position lies outside the codes")
        code = np.empty(self._packer.code_size, dtype=np.uint8)
        blocks = self._blocks()
        self._packer.unpack_1_c(blocks, source, self._faiss.swig_ptr(code))
        self._packer.pack_1_c(self._faiss.swig_ptr(code), target, blocks)

    def truncate(self, size: int) -> None:
        """Keep the first `size` rows."""
        if not 0 <= size <= len(self):
            raise IndexError("cannot grow the codes by truncating them")
        blocks = self._blocks()
        zero = self._faiss.swig_ptr(self._zero)
        for row in range(size, len(self)):
            self._packer.pack_1_c(zero, row, blocks)
        self._index.ntotal = size

    def code(self, row: int) -> npt.NDArray[np.uint8]:
        """The code stored at `row` (for tests and checks)."""
        if not 0 <= row < len(self):
            raise IndexError("the row position lies outside the codes")
        code = np.empty(self._packer.code_size, dtype=np.uint8)
        self._packer.unpack_1_c(self._blocks(), row, self._faiss.swig_ptr(code))
        return code

    def encode(self, vectors: FloatMatrix) -> npt.NDArray[np.uint8]:
        """The codes `vectors` would be stored as (for tests and checks)."""
        codes: npt.NDArray[np.uint8] = self._index.pq.compute_codes(
            np.ascontiguousarray(vectors, dtype=np.float32)
        )
        return codes

    def nearest(self, query: FloatMatrix, count: int) -> KeyArray:
        """Positions of the `count` rows with the highest approximate inner product with
        `query` (fewer when there are fewer rows), in no particular order."""
        # faiss's search for up to 20 results reads its output buffer as a starting threshold
        # (faiss 1.15: FLT_MAX there admits nothing), and faiss's Python wrapper leaves that
        # buffer uninitialised: once memory freed just before held FLT_MAX, a search found no
        # row at all. The lowest float admits every row.
        vector = np.ascontiguousarray(query.reshape(-1), dtype=np.float32)
        scores = np.full(count, np.finfo(np.float32).min, dtype=np.float32)
        rows = np.full(count, -1, dtype=np.int64)
        pointer = self._faiss.swig_ptr
        self._index.search_c(1, pointer(vector), count, pointer(scores), pointer(rows))
        found: KeyArray = rows[rows >= 0]
        return found

    def _blocks(self) -> Any:
        # Taken anew for every change: adding rows can move faiss's table.
        return self._index.codes.get()

"""Scan kernels: the two memory-bound loops of a shortlisted vector search.

A search over a large index runs two loops: the Hamming distance from the query's sign code to
every row's code, then the inner product of the query with each shortlisted float32 row. Right
after the embedding model has run, the caches hold none of this data, so both loops wait on
memory, and numpy adds a temporary per step (xor, popcount, sum; gather, then product).
faiss-cpu runs each as one compiled loop, on two threads for the products
(`benchmarks/bench_accelerations.py` compares the two kernels). numpy's loops stay as the
reference the faiss kernel is tested against, and as the fallback where faiss cannot load
(`vector_kernel = "numpy"`).

Each kernel keeps the codes in the layout it scans fastest, behind `CodeTable`.
"""

from __future__ import annotations

import logging
import os
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from loci.errors import ConfigurationError
from loci.storage.indexes.vectors.fastscan import FastScanCodes
from loci.storage.indexes.vectors.signcodes import ByteCodes, Distances

FloatMatrix = npt.NDArray[np.float32]
KeyArray = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float32]
KernelName = Literal["auto", "faiss", "numpy"]

#: Threads for the products of shortlisted rows: more rows in flight hide more memory latency.
MAX_THREADS = 4
#: Below this many rows, splitting the products between threads costs more than it saves.
SPLIT_FROM = 512

logger = logging.getLogger(__name__)


class CodeTable(Protocol):
    """The sign codes of an index's rows, one per row position."""

    def write(self, rows: KeyArray, codes: ByteCodes) -> None:
        """Store `codes` (one row of bytes each) at the positions `rows`."""
        ...

    def move(self, source: int, target: int) -> None:
        """Copy the code at `source` to `target` (a delete fills its hole with the last row)."""
        ...

    def resized(self, capacity: int, size: int) -> CodeTable:
        """A table of `capacity` positions holding this one's first `size` codes."""
        ...

    def distances(self, query: ByteCodes, size: int) -> Distances:
        """Hamming distance from `query` (one code) to each of the first `size` codes."""
        ...


class ScanKernel(Protocol):
    """Makes code tables and scores shortlisted rows."""

    name: str

    def table(self, code_bytes: int, capacity: int) -> CodeTable:
        """An empty table for codes of `code_bytes` bytes."""
        ...

    def inner_products(
        self, matrix: FloatMatrix, rows: KeyArray, query: FloatMatrix
    ) -> npt.NDArray[np.float32]:
        """The inner product of `query` with each row of `matrix` that `rows` names."""
        ...

    def fast_scan_codes(self, rows: FloatMatrix) -> FastScanCodes | None:
        """Fast-scan codes trained on and holding `rows`, or None if this kernel has none."""
        ...

    def all_products(self, matrix: FloatMatrix, size: int, query: FloatMatrix) -> Scores:
        """The inner product of `query` with each of the first `size` rows of `matrix`."""
        ...


def load_kernel(name: KernelName) -> ScanKernel:
    """The kernel `name` asks for; "auto" is faiss when it loads and numpy otherwise."""
    if name == "numpy":
        return NumpyKernel()
    try:
        faiss = _import_faiss()
    except (ImportError, OSError) as error:
        if name == "faiss":
            raise ConfigurationError(
                f"vector_kernel is 'faiss' but faiss-cpu cannot be loaded: {error}",
                setting="vector_kernel",
            ) from error
        logger.warning("faiss-cpu cannot be loaded (%s); vector search uses numpy's loops", error)
        return NumpyKernel()
    return FaissKernel(faiss, threads=min(MAX_THREADS, os.cpu_count() or 1))


class NumpyKernel:
    """numpy's loops: codes stored as one array of 64-bit words per word position, so each
    step of the scan runs over one long contiguous array."""

    name = "numpy"

    def table(self, code_bytes: int, capacity: int) -> CodeTable:
        """An empty word-column table."""
        return WordColumns(np.zeros((code_bytes // 8, capacity), dtype=np.uint64))

    def inner_products(
        self, matrix: FloatMatrix, rows: KeyArray, query: FloatMatrix
    ) -> npt.NDArray[np.float32]:
        """Gather the rows, then one product."""
        # np.take gathers rows about twice as fast as fancy indexing.
        products: npt.NDArray[np.float32] = np.take(matrix, rows, axis=0) @ query.reshape(-1)
        return products

    def fast_scan_codes(self, rows: FloatMatrix) -> FastScanCodes | None:
        """None: fast-scan needs faiss."""
        return None

    def all_products(self, matrix: FloatMatrix, size: int, query: FloatMatrix) -> Scores:
        """One matrix-vector product (numpy's BLAS, one thread: see `app.limit_blas_threads`)."""
        products: Scores = matrix[:size] @ query.reshape(-1)
        return products


class WordColumns:
    """Codes as a (words, capacity) matrix of 64-bit words."""

    def __init__(self, words: npt.NDArray[np.uint64]) -> None:
        self._words = words

    def write(self, rows: KeyArray, codes: ByteCodes) -> None:
        """Store codes at `rows`."""
        self._words[:, rows] = np.ascontiguousarray(codes).view(np.uint64).T

    def move(self, source: int, target: int) -> None:
        """Copy one code."""
        self._words[:, target] = self._words[:, source]

    def resized(self, capacity: int, size: int) -> CodeTable:
        """A larger (or smaller) copy."""
        words = np.zeros((self._words.shape[0], capacity), dtype=np.uint64)
        words[:, :size] = self._words[:, :size]
        return WordColumns(words)

    def distances(self, query: ByteCodes, size: int) -> Distances:
        """xor, popcount and sum, word position by word position."""
        query_words = np.ascontiguousarray(query).view(np.uint64).reshape(-1, 1)
        differing = np.bitwise_count(np.bitwise_xor(self._words[:, :size], query_words))
        distances: Distances = differing.sum(axis=0, dtype=np.uint16)
        return distances


class FaissKernel:
    """faiss-cpu's compiled loops: codes stored row by row, as faiss reads them."""

    name = "faiss"

    def __init__(self, faiss: Any, threads: int) -> None:
        self._faiss = faiss
        self._threads = max(1, threads)
        # faiss's OpenMP pool serves only the products below; the embedding model has its own.
        self._faiss.omp_set_num_threads(self._threads)

    def table(self, code_bytes: int, capacity: int) -> CodeTable:
        """An empty byte-row table."""
        return ByteRows(self._faiss, np.zeros((capacity, code_bytes), dtype=np.uint8))

    def inner_products(
        self, matrix: FloatMatrix, rows: KeyArray, query: FloatMatrix
    ) -> npt.NDArray[np.float32]:
        """One compiled loop over the rows, split between the threads; a few rows in numpy.

        faiss parallelises `fvec_inner_products_by_idx` over its queries, so the query is
        repeated once per thread and each copy gets an equal share of the rows (the last share
        padded with the last row)."""
        count = rows.shape[0]
        if count < SPLIT_FROM:
            # One thread either way, and numpy's gather needs none of the checks and copies
            # around faiss's call.
            return NumpyKernel().inner_products(matrix, rows, query)
        if not (matrix.flags.c_contiguous and matrix.dtype == np.float32):
            raise ValueError("the matrix must be C-contiguous float32")
        if int(rows.min()) < 0 or int(rows.max()) >= matrix.shape[0]:
            raise IndexError("a row position lies outside the matrix")
        pieces = self._threads
        share = -(-count // pieces)
        padded = np.empty(share * pieces, dtype=np.int64)
        padded[:count] = rows
        padded[count:] = rows[-1]
        queries = np.ascontiguousarray(
            np.broadcast_to(query.reshape(1, -1), (pieces, matrix.shape[1])), dtype=np.float32
        )
        products = np.empty(padded.shape[0], dtype=np.float32)
        pointer = self._faiss.swig_ptr
        self._faiss.fvec_inner_products_by_idx(
            pointer(products),
            pointer(queries),
            pointer(matrix),
            pointer(padded),
            matrix.shape[1],
            pieces,
            share,
        )
        return products[:count]

    def fast_scan_codes(self, rows: FloatMatrix) -> FastScanCodes | None:
        """Codes trained on a sample of `rows`."""
        return FastScanCodes.trained(self._faiss, rows)

    def all_products(self, matrix: FloatMatrix, size: int, query: FloatMatrix) -> Scores:
        """The rows split between the threads."""
        return self.inner_products(matrix, np.arange(size, dtype=np.int64), query)


class ByteRows:
    """Codes as a (capacity, bytes) matrix, one contiguous code per row."""

    def __init__(self, faiss: Any, codes: ByteCodes) -> None:
        self._faiss = faiss
        self._codes = codes

    def write(self, rows: KeyArray, codes: ByteCodes) -> None:
        """Store codes at `rows`."""
        self._codes[rows] = codes

    def move(self, source: int, target: int) -> None:
        """Copy one code."""
        self._codes[target] = self._codes[source]

    def resized(self, capacity: int, size: int) -> CodeTable:
        """A larger (or smaller) copy."""
        codes = np.zeros((capacity, self._codes.shape[1]), dtype=np.uint8)
        codes[:size] = self._codes[:size]
        return ByteRows(self._faiss, codes)

    def distances(self, query: ByteCodes, size: int) -> Distances:
        """faiss's Hamming loop over the first `size` rows."""
        code = np.ascontiguousarray(query.reshape(-1), dtype=np.uint8)
        if code.shape[0] != self._codes.shape[1] or size > self._codes.shape[0]:
            raise ValueError("the query code or the size does not fit the table")
        distances = np.empty(size, dtype=np.int32)
        pointer = self._faiss.swig_ptr
        self._faiss.hammings(
            pointer(code), pointer(self._codes), 1, size, code.shape[0], pointer(distances)
        )
        return distances.astype(np.uint16)


def _import_faiss() -> Any:
    """faiss, imported on first use: it is slow to import, and small stores never need it."""
    # faiss's OpenMP runtime reads this as it loads. By default its idle threads spin for
    # milliseconds after each search and take the cores the embedding model needs next.
    # Passive threads sleep.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import faiss

    return faiss

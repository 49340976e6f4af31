"""Scan kernels: the memory-bound loop of a vector search, the inner product of the query with
many float32 rows (all of them, or a shortlist's), and the fast-scan codes that shortlist them.

Right after the embedding model has run, the caches hold none of the rows, so the loop waits on
memory, and numpy gathers before it multiplies. faiss-cpu runs it as one compiled loop on
several threads (`benchmarks/bench_accelerations.py` compares the two kernels). numpy's loops
stay as the reference the faiss kernel is tested against, and as the fallback where faiss
cannot load (`vector_kernel = "numpy"`).
"""

from __future__ import annotations

import logging
import os
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from loci.errors import ConfigurationError
from loci.storage.fastscan import FastScanCodes

FloatMatrix = npt.NDArray[np.float32]
KeyArray = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float32]
KernelName = Literal["auto", "faiss", "numpy"]

#: Threads for the products of many rows: more rows in flight hide more memory latency.
MAX_THREADS = 4
#: Below this many rows, splitting the products between threads costs more than it saves.
SPLIT_FROM = 512

logger = logging.getLogger(__name__)


class ScanKernel(Protocol):
    """Scores rows and makes fast-scan codes."""

    name: str

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
    """numpy's loops."""

    name = "numpy"

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


class FaissKernel:
    """faiss-cpu's compiled loops."""

    name = "faiss"

    def __init__(self, faiss: Any, threads: int) -> None:
        self._faiss = faiss
        self._threads = max(1, threads)
        # faiss's OpenMP pool serves only the products below; the embedding model has its own.
        self._faiss.omp_set_num_threads(self._threads)

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


def _import_faiss() -> Any:
    """faiss, imported on first use: it is slow to import, and small stores never need it."""
    # faiss's OpenMP runtime reads this as it loads. By default its idle threads spin for
    # milliseconds after each search and take the cores the embedding model needs next.
    # Passive threads sleep.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import faiss

    return faiss

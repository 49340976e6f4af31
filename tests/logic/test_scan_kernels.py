"""The scan kernels: faiss's compiled loops give numpy's answers, and a missing faiss is handled."""

from __future__ import annotations

import logging
import sys

import numpy as np
import numpy.typing as npt
import pytest

from loci.errors import ConfigurationError
from loci.settings import load_settings
from loci.storage.indexes.vectors.scan_kernels import (
    SPLIT_FROM,
    FaissKernel,
    NumpyKernel,
    load_kernel,
)

CODE_BYTES = 48
DIMENSIONS = 384


def random_codes(count: int, seed: int) -> npt.NDArray[np.uint8]:
    return np.random.default_rng(seed).integers(0, 256, (count, CODE_BYTES), dtype=np.uint8)


def reference_distances(codes: npt.NDArray[np.uint8], query: npt.NDArray[np.uint8]) -> list[int]:
    return [int(np.unpackbits(row ^ query).sum()) for row in codes]


@pytest.fixture(scope="module")
def faiss_kernel() -> FaissKernel:
    kernel = load_kernel("faiss")
    assert isinstance(kernel, FaissKernel)
    return kernel


@pytest.mark.parametrize("size", [0, 1, 7, 1000])
def test_both_kernels_count_differing_bits(faiss_kernel: FaissKernel, size: int) -> None:
    codes = random_codes(size, seed=size)
    query = random_codes(1, seed=99)
    expected = reference_distances(codes, query[0])
    for kernel in (faiss_kernel, NumpyKernel()):
        table = kernel.table(CODE_BYTES, size + 5)  # capacity beyond the size is not scanned
        table.write(np.arange(size, dtype=np.int64), codes)
        assert table.distances(query, size).tolist() == expected, kernel.name


def test_tables_move_and_resize_codes(faiss_kernel: FaissKernel) -> None:
    codes = random_codes(10, seed=1)
    query = codes[4:5]
    for kernel in (faiss_kernel, NumpyKernel()):
        table = kernel.table(CODE_BYTES, 10)
        table.write(np.arange(10, dtype=np.int64), codes)
        table.move(9, 2)  # a delete at 2 fills its hole with the last row
        grown = table.resized(40, 9)
        grown.write(np.array([30], dtype=np.int64), codes[4:5])
        distances = grown.distances(query, 31)
        assert distances[4] == 0 and distances[30] == 0, kernel.name
        assert distances[2] == reference_distances(codes[9:10], query[0])[0]
        assert (
            distances[9]
            == distances[20]
            == reference_distances(np.zeros_like(codes[:1]), query[0])[0]
        )


def test_faiss_table_rejects_a_query_code_of_the_wrong_length(faiss_kernel: FaissKernel) -> None:
    table = faiss_kernel.table(CODE_BYTES, 10)
    with pytest.raises(ValueError, match="does not fit"):
        table.distances(random_codes(1, seed=2)[:, :40], 10)
    with pytest.raises(ValueError, match="does not fit"):
        table.distances(random_codes(1, seed=2), 11)


@pytest.mark.parametrize("count", [0, 1, SPLIT_FROM - 1, SPLIT_FROM, SPLIT_FROM + 1, 3001])
def test_faiss_products_of_chosen_rows_match_numpy(faiss_kernel: FaissKernel, count: int) -> None:
    """Split between threads with the last share padded: every count gives every product."""
    rng = np.random.default_rng(count)
    matrix = rng.standard_normal((5000, DIMENSIONS)).astype(np.float32)
    query = rng.standard_normal(DIMENSIONS).astype(np.float32)
    rows = rng.choice(5000, count, replace=True).astype(np.int64)  # unsorted, with repeats
    products = faiss_kernel.inner_products(matrix, rows, query)
    assert products.dtype == np.float32 and products.shape == (count,)
    np.testing.assert_allclose(
        products, NumpyKernel().inner_products(matrix, rows, query), rtol=1e-5, atol=1e-5
    )


@pytest.mark.parametrize("size", [1, SPLIT_FROM - 1, 4097])
def test_both_kernels_score_every_leading_row(faiss_kernel: FaissKernel, size: int) -> None:
    rng = np.random.default_rng(size)
    matrix = rng.standard_normal((5000, DIMENSIONS)).astype(np.float32)
    query = rng.standard_normal(DIMENSIONS).astype(np.float32)
    expected = matrix[:size].astype(np.float64) @ query.astype(np.float64)
    for kernel in (faiss_kernel, NumpyKernel()):
        products = kernel.all_products(matrix, size, query)
        assert products.dtype == np.float32 and products.shape == (size,)
        np.testing.assert_allclose(products, expected, rtol=1e-4, atol=1e-4)


def test_faiss_products_refuse_rows_outside_the_matrix(faiss_kernel: FaissKernel) -> None:
    """faiss's loop reads wherever it is told: its rows are checked first (fewer rows than
    SPLIT_FROM go to numpy, which checks its own)."""
    matrix = np.ones((10, DIMENSIONS), dtype=np.float32)
    query = np.ones(DIMENSIONS, dtype=np.float32)
    for wrong in (10, -1):
        rows = np.full(SPLIT_FROM, 3, dtype=np.int64)
        rows[SPLIT_FROM // 2] = wrong
        with pytest.raises(IndexError):
            faiss_kernel.inner_products(matrix, rows, query)
    with pytest.raises(IndexError):
        faiss_kernel.inner_products(matrix, np.array([0, 10], dtype=np.int64), query)
    with pytest.raises(ValueError, match="C-contiguous"):
        faiss_kernel.inner_products(matrix[:, ::2], np.ones(SPLIT_FROM, dtype=np.int64), query)


def test_load_kernel_picks_by_name() -> None:
    assert load_kernel("numpy").name == "numpy"
    assert load_kernel("auto").name == "faiss"
    assert load_kernel("faiss").name == "faiss"


def test_without_faiss_auto_falls_back_and_faiss_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "faiss", None)  # makes `import faiss` fail
    with caplog.at_level(logging.WARNING, logger="loci.storage.indexes.vectors.scan_kernels"):
        assert load_kernel("auto").name == "numpy"
    assert "faiss-cpu cannot be loaded" in caplog.text
    with pytest.raises(ConfigurationError) as raised:
        load_kernel("faiss")
    assert raised.value.details["setting"] == "vector_kernel"
    with pytest.raises(ConfigurationError, match="vector_kernel"):
        load_settings(vector_kernel="faiss")
    assert load_settings(vector_kernel="auto").vector_kernel == "auto"

"""The vector index: the Protocol (`protocol.py`), the plain reference (`plain.py`), the
embedded exact index and its accelerations (`embedded.py`, `signcodes.py`, `fastscan.py`,
`scan_kernels.py`), and pgvector's (`postgres*.py`)."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["embedded", "memory_vectors", "postgres", "protocol", "scan_kernels"]

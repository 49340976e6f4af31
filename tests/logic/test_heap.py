"""Freed memory goes back to the system."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from loci.heap import _glibc, release_free_memory


def resident_mb() -> int:
    status = Path("/proc/self/status").read_text(encoding="ascii")
    match = re.search(r"VmRSS:\s+(\d+)", status)
    assert match is not None
    return int(match.group(1)) // 1024


@pytest.mark.skipif(_glibc() is None, reason="malloc_trim is glibc's (Linux)")
def test_freed_heap_is_returned() -> None:
    # Blocks under glibc's mmap threshold (128 KB) come from the heap, which keeps their pages
    # when they are freed unless trimmed; a survivor at the end keeps the heap's top in use.
    blocks = [bytearray(64 * 1024) for _ in range(3200)]  # 200 MB, every page touched
    survivor = bytearray(64 * 1024)
    before = resident_mb()
    del blocks
    kept = resident_mb()
    release_free_memory()
    after = resident_mb()
    assert before - after > 100, (before, kept, after)
    assert len(survivor) == 64 * 1024

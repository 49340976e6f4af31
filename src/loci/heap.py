"""Giving freed memory back to the operating system.

glibc's allocator keeps the pages of freed blocks for reuse, so a process that once read a
whole store (or embedded a large batch) would hold that peak for the rest of its life.
`malloc_trim` returns them. Elsewhere (macOS, musl) this is a no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache
from typing import Any


def release_free_memory() -> None:
    """Return the heap's free pages to the system (glibc only)."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


@cache
def _glibc() -> Any | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c") or "libc.so.6"
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        return libc
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None

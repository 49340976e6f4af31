"""Counts in words, as every face of loci (tools, CLI, web view) says them."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and the noun, singular for one: "1 memory", "3 memories"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def size_text(size: int) -> str:
    """A size in bytes as people read it: "812 bytes", "3.4 MB", "2.1 GB" (powers of 1000)."""
    if size < 1000:
        return counted(size, "byte")
    value, unit = size / 1000, "kB"
    for bigger in ("MB", "GB", "TB"):
        if value < 1000:
            break
        value, unit = value / 1000, bigger
    return f"{value:.1f} {unit}"

"""Counts in words, as every face of loci (tools, CLI, web view) says them."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and the noun, singular for one: "1 memory", "3 memories"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"

"""Token counting: the budgets of the story window are in the tokens of an LLM tokenizer.

`quicktok` counts OpenAI's encodings exactly, offline (it ships the BPE files); the encoding is
a setting. Loaded on first use, so importing loci costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from loci.errors import ConfigurationError

KNOWN_ENCODINGS = ("cl100k_base", "o200k_base")


class TokenCounter(Protocol):
    """Counts the tokens of a text."""

    def count(self, text: str) -> int:
        """The number of tokens `text` encodes to."""
        ...


class BpeCounter:
    """An exact counter for one of `KNOWN_ENCODINGS`, loaded lazily."""

    def __init__(self, encoding: str = "cl100k_base") -> None:
        if encoding not in KNOWN_ENCODINGS:
            raise ConfigurationError(
                f"unknown token encoding {encoding!r}; use one of {', '.join(KNOWN_ENCODINGS)}",
                encoding=encoding,
            )
        self.encoding = encoding
        self._encode: Callable[[str], list[int]] | None = None

    def count(self, text: str) -> int:
        """The number of tokens `text` encodes to (special tokens read as plain text)."""
        if not text:
            return 0
        if self._encode is None:
            import quicktok  # type: ignore[import-untyped]

            self._encode = quicktok.get_encoding(self.encoding).encode_ordinary
        return len(self._encode(text))

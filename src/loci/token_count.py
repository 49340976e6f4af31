"""Token counting: the budgets of the story window are in the tokens of an LLM tokenizer.

`quicktok` counts OpenAI's encodings exactly, offline (it ships the BPE files); the encoding is
a setting. Loaded on first use, so importing loci costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from loci.errors import ConfigurationError

KNOWN_ENCODINGS = ("cl100k_base", "o200k_base")


class TokenCounter(Protocol):
    """Counts the tokens of a text."""

    def count(self, text: str) -> int:
        """The number of tokens `text` encodes to."""
        ...

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """The number of tokens of each text."""
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
        self._encoding: Any = None

    def count(self, text: str) -> int:
        """The number of tokens `text` encodes to (special tokens read as plain text)."""
        if not text:
            return 0
        return len(self._loaded().encode_ordinary(text))

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """The number of tokens of each text, in one call."""
        if not texts:
            return []
        import quicktok  # type: ignore[import-untyped]

        return [int(n) for n in quicktok.count_batch(self._loaded(), list(texts), threads=1)]

    def _loaded(self) -> Any:
        if self._encoding is None:
            import quicktok

            self._encoding = quicktok.get_encoding(self.encoding)
        return self._encoding

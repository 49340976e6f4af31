"""The small interface every embedding backend implements."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


@dataclass(frozen=True)
class ModelIdentity:
    """What a store records about the model that made its vectors."""

    name: str
    dimensions: int

    def describe(self) -> str:
        """Human-readable `name (N-d)`."""
        return f"{self.name} ({self.dimensions}-d)"


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit-length float32 vectors.

    `identity` must be known without loading the model, so a store can check it cheaply.
    """

    @property
    def identity(self) -> ModelIdentity:
        """The model's name and vector size."""
        ...

    @property
    def is_loaded(self) -> bool:
        """Whether the model is in memory (embedding will not pay for loading it)."""
        ...

    def load(self) -> None:
        """Load the model now (idempotent and thread-safe)."""
        ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed `texts` into an array of shape (len(texts), dimensions), rows L2-normalised."""
        ...

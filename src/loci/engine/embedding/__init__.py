"""Text embedding: the `Embedder` Protocol and its implementations.

Nothing heavy is imported here; implementations load their runtime on first use.
"""

from loci.engine.embedding.protocol import Embedder, ModelIdentity

__all__ = ["Embedder", "ModelIdentity"]

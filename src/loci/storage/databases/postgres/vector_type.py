"""pgvector's `vector` type on a psycopg connection, as `VectorBlob` bytes; JSON as text.

Written here rather than taken from the `pgvector` package: that one converts to numpy
arrays, and loci's statements pass and read float32 bytes on both engines (`vector_blob.py`).
The binary format is pgvector's: dimensions and a reserved word (uint16 each, big-endian),
then the values as big-endian float32.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import psycopg
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from loci.storage.databases.vector_blob import VectorBlob

_HEADER = struct.Struct(">HH")


def register_vector_type(conn: psycopg.Connection[Any]) -> bool:
    """Teach `conn` the `vector` type if the database has it; False if it has not (yet).
    JSON values are read as their text too, as SQLite gives them."""
    conn.adapters.register_loader("json", JsonTextLoader)
    conn.adapters.register_loader("jsonb", JsonbTextLoader)
    info = TypeInfo.fetch(conn, "vector")
    if info is None:
        return False
    oid = info.oid

    class VectorDumper(Dumper):
        format = Format.BINARY

        def dump(self, obj: Any) -> Buffer:
            values = np.frombuffer(obj, dtype="<f4")
            return _HEADER.pack(values.shape[0], 0) + values.astype(">f4").tobytes()

    VectorDumper.oid = oid
    conn.adapters.register_dumper(VectorBlob, VectorDumper)
    conn.adapters.register_loader(oid, VectorLoader)
    return True


class VectorLoader(Loader):
    """A `vector` read in binary, as little-endian float32 bytes."""

    format = Format.BINARY

    def load(self, data: Buffer) -> bytes:
        """The vector's values as float32 bytes."""
        dimensions, _ = _HEADER.unpack_from(data)
        values = np.frombuffer(data, dtype=">f4", offset=_HEADER.size, count=dimensions)
        return values.astype("<f4").tobytes()


class JsonTextLoader(Loader):
    """A `json` value read in binary, as its text."""

    format = Format.BINARY

    def load(self, data: Buffer) -> str:
        """The JSON text."""
        return bytes(data).decode("utf-8")


class JsonbTextLoader(Loader):
    """A `jsonb` value read in binary (a version byte, then the text), as its text."""

    format = Format.BINARY

    def load(self, data: Buffer) -> str:
        """The JSON text."""
        return bytes(data[1:]).decode("utf-8")

"""A memory's vector as statements pass it: float32 bytes, the same on both engines.

SQLite stores the bytes as a BLOB (a `bytes` subclass binds as one). PostgreSQL stores a
pgvector `vector`, so that the database can search; its connection dumps a `VectorBlob` as
one and loads a `vector` back as these bytes (`postgres/vector_type.py`), so code that reads
or writes vectors is the same on both engines.
"""

from __future__ import annotations


class VectorBlob(bytes):
    """Little-endian float32 values of one vector."""

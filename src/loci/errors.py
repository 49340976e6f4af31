"""The one error tree of loci.

Every error a caller can cause or meet derives from :class:`LociError` and carries a stable
``code`` (used as the ``type`` of MCP tool errors and to pick CLI exit codes)::

    LociError                      code
    ├── InvalidInputError          invalid_input        bad arguments; nothing was changed
    ├── NotFoundError              not_found            an id or namespace that does not exist
    ├── ConflictError              conflict             the store's state forbids the operation
    ├── QuotaExceededError         quota_exceeded       a configured limit would be passed
    ├── StorageUnavailableError    storage_unavailable  the data folder or database cannot be used
    ├── ModelMismatchError         model_mismatch       stored vectors come from another model
    ├── EmbeddingError             embedding_failed     the embedding model failed to load or run
    └── ConfigurationError         configuration        invalid settings, found at start

The checkpoint toolset keeps the codes of its specification (with the HTTP status it names in
``details.status``): ``CHECKPOINT_NOT_FOUND`` and ``SESSION_NOT_FOUND`` (404, kinds of not
found), ``STORAGE_QUOTA_EXCEEDED`` (413), ``STORAGE_UNAVAILABLE`` (503), and
``CHECKPOINT_CORRUPTED`` / ``ENCRYPTION_KEY_UNAVAILABLE`` for blobs that fail their checks or
cannot be decrypted.

Services raise these; the MCP layer turns them into tool errors shaped
``{"error": {"type", "message", "details"}}`` and the CLI into messages and exit codes.
"""

from __future__ import annotations

from typing import Any, ClassVar


class LociError(Exception):
    """Base of every error loci raises on purpose."""

    code: ClassVar[str] = "internal"
    exit_code: ClassVar[int] = 1
    #: The HTTP status a specification names for this error, carried in `details.status`.
    http_status: ClassVar[int | None] = None

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if self.http_status is not None:
            details = {"status": self.http_status, **details}
        self.details: dict[str, Any] = details

    def to_dict(self) -> dict[str, Any]:
        """The error as the JSON object tools and `--json` output carry."""
        return {"type": self.code, "message": self.message, "details": self.details}


class InvalidInputError(LociError):
    """The caller sent something loci cannot accept; nothing was changed."""

    code = "invalid_input"
    exit_code = 2


class NotFoundError(LociError):
    """A memory, namespace or other named thing does not exist."""

    code = "not_found"
    exit_code = 3


class ConflictError(LociError):
    """The operation conflicts with what is stored (for example a name already in use)."""

    code = "conflict"
    exit_code = 4


class ForbiddenError(LociError):
    """The caller's access token does not allow this (another toolset, or a write)."""

    code = "forbidden"
    exit_code = 12
    http_status = 403


class QuotaExceededError(LociError):
    """A configured size or count limit would be exceeded."""

    code = "quota_exceeded"
    exit_code = 5


class StorageUnavailableError(LociError):
    """The data folder or the database cannot be opened, read or written."""

    code = "storage_unavailable"
    exit_code = 6


class ModelMismatchError(LociError):
    """The store's vectors were made by another embedding model than the configured one."""

    code = "model_mismatch"
    exit_code = 7


class EmbeddingError(LociError):
    """The embedding model could not be loaded or failed to run."""

    code = "embedding_failed"
    exit_code = 8


class ConfigurationError(LociError):
    """A setting is invalid; raised at start, naming the setting."""

    code = "configuration"
    exit_code = 9


class CheckpointNotFoundError(NotFoundError):
    """No checkpoint with that id."""

    code = "CHECKPOINT_NOT_FOUND"
    http_status = 404


class SessionNotFoundError(NotFoundError):
    """No checkpoint session with that id."""

    code = "SESSION_NOT_FOUND"
    http_status = 404


class StorageQuotaExceededError(QuotaExceededError):
    """A checkpoint would pass a storage limit and cleanup cannot make room."""

    code = "STORAGE_QUOTA_EXCEEDED"
    http_status = 413


class CheckpointStorageError(StorageUnavailableError):
    """The checkpoint folder or its files cannot be used."""

    code = "STORAGE_UNAVAILABLE"
    http_status = 503


class CheckpointCorruptedError(LociError):
    """A checkpoint's blob is missing, fails its checksum, or was tampered with."""

    code = "CHECKPOINT_CORRUPTED"
    exit_code = 10


class EncryptionKeyError(LociError):
    """Encryption is on but no key source works, or the key cannot open a blob."""

    code = "ENCRYPTION_KEY_UNAVAILABLE"
    exit_code = 11

"""Checkpoint encryption: AES-256-GCM blobs, keys from the OS keychain or a private key file.

The keys live together as one small JSON document `{"current": id, "keys": {id: key}}` in the
OS keychain (service "loci", entry "checkpoint-keys") when the machine has one, else in
`LOCI_ENCRYPTION_KEY_FILE` (mode 0600, outside the data folder, created on first use). Keeping
older keys lets a rotation re-encrypt blobs one by one and still read any it has not reached.
A key's id is the start of its SHA-256, stored beside each blob so a wrong key is named as such.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from loci.errors import CheckpointCorruptedError, EncryptionKeyError
from loci.storage.files import atomic_write

MAGIC = b"LCE1"
NONCE_BYTES = 12
KEY_BYTES = 32
KEYRING_SERVICE = "loci"
KEYRING_ENTRY = "checkpoint-keys"
#: Bound to every blob, so a blob cannot be passed off as anything but a loci checkpoint.
ASSOCIATED_DATA = b"loci checkpoint v1"


@dataclass
class KeySet:
    """The current key and every older one still needed."""

    current: str
    keys: dict[str, bytes] = field(default_factory=dict)

    def to_json(self) -> str:
        """The key set as stored."""
        keys = {kid: base64.b64encode(key).decode() for kid, key in self.keys.items()}
        return json.dumps({"current": self.current, "keys": keys})

    @classmethod
    def from_json(cls, text: str) -> KeySet:
        """A stored key set; raises EncryptionKeyError if it is unreadable."""
        try:
            data = json.loads(text)
            keys = {kid: base64.b64decode(value) for kid, value in data["keys"].items()}
            current = str(data["current"])
        except KeyError as exc:
            raise EncryptionKeyError(f"the stored checkpoint keys lack {exc}") from None
        except (ValueError, TypeError) as exc:
            raise EncryptionKeyError(f"the stored checkpoint keys are unreadable: {exc}") from None
        if current not in keys or any(len(k) != KEY_BYTES for k in keys.values()):
            raise EncryptionKeyError("the stored checkpoint keys are incomplete")
        return cls(current, keys)


def key_id(key: bytes) -> str:
    """A key's public name."""
    return hashlib.sha256(key).hexdigest()[:16]


def new_key_set(previous: KeySet | None = None) -> KeySet:
    """A fresh current key, keeping `previous` keys for blobs not yet re-encrypted."""
    key = secrets.token_bytes(KEY_BYTES)
    keys = dict(previous.keys) if previous else {}
    keys[key_id(key)] = key
    return KeySet(key_id(key), keys)


class KeyStore:
    """Where the key set lives: the OS keychain if it works, else the key file."""

    def __init__(self, key_file: Path | None, data_folder: Path) -> None:
        self._key_file = key_file
        self._data_folder = data_folder
        self._cached: KeySet | None = None

    def load(self, create: bool) -> KeySet:
        """The key set (made and stored on first use when `create`)."""
        if self._cached is not None:
            return self._cached
        stored = self._read()
        if stored is None:
            if not create:  # asked for by a checkpoint that was encrypted: the key is gone
                raise self._missing()
            stored = new_key_set()
            self.save(stored)
        self._cached = stored
        return stored

    def peek(self) -> KeySet | None:
        """The stored key set, or None before the first encrypted save; raises
        EncryptionKeyError when no key source works."""
        return self._cached if self._cached is not None else self._read()

    def save(self, keys: KeySet) -> None:
        """Store the key set where it came from (keychain first)."""
        if not self._keyring_set(keys.to_json()):
            path = self._usable_key_file()
            try:
                atomic_write(path, keys.to_json().encode("utf-8"))
            except OSError as exc:
                raise EncryptionKeyError(
                    f"cannot write the key file {path}: {exc.strerror or exc}", path=str(path)
                ) from exc
        self._cached = keys

    def _read(self) -> KeySet | None:
        keychain_works, found = self._keyring_get()
        if found is not None:
            return KeySet.from_json(found)
        if self._key_file is None and keychain_works:
            return None
        path = self._usable_key_file()
        if not path.exists():
            return None
        if path.is_dir():
            raise EncryptionKeyError(
                f"LOCI_ENCRYPTION_KEY_FILE ({path}) is a folder; name a file in it instead "
                "(it is created on first use)",
                path=str(path),
            )
        try:
            if os.name == "posix" and path.stat().st_mode & 0o077:
                raise EncryptionKeyError(
                    f"{path} can be read by other users; run `chmod 600 {path}`", path=str(path)
                )
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise EncryptionKeyError(
                f"cannot read the key file {path}: {exc}", path=str(path)
            ) from exc
        return KeySet.from_json(text)

    def _missing(self) -> EncryptionKeyError:
        details: dict[str, str] = {}
        where = f"the OS keychain (service {KEYRING_SERVICE!r}, entry {KEYRING_ENTRY!r})"
        if self._key_file is not None:
            details["path"] = str(self._key_file.expanduser().absolute())
            where = f"the key file {details['path']}"
        return EncryptionKeyError(
            f"the checkpoint key is missing: checkpoints were encrypted with it, but {where} "
            "holds no key (deleted or moved?); put it back from a backup, without it they "
            "cannot be read",
            **details,
        )

    def _usable_key_file(self) -> Path:
        if self._key_file is None:
            raise EncryptionKeyError(
                "encryption is on but there is no OS keychain on this machine and "
                "LOCI_ENCRYPTION_KEY_FILE is not set; set it to a path outside the data folder "
                "(the key file is created there, mode 0600)"
            )
        path = self._key_file.expanduser().absolute()
        if path.is_relative_to(self._data_folder.absolute()):
            raise EncryptionKeyError(
                f"LOCI_ENCRYPTION_KEY_FILE ({path}) must be outside the data folder, so that a "
                "copy of the data folder does not carry its own key",
                path=str(path),
            )
        return path

    def _keyring_get(self) -> tuple[bool, str | None]:
        """(whether the OS keychain works, the stored key set if any)."""
        try:
            import keyring

            value: str | None = keyring.get_password(KEYRING_SERVICE, KEYRING_ENTRY)
        except Exception:  # noqa: BLE001 (no backend, locked keychain, D-Bus errors: use the file)
            return False, None
        return True, value

    def _keyring_set(self, value: str) -> bool:
        try:
            import keyring

            keyring.set_password(KEYRING_SERVICE, KEYRING_ENTRY, value)
        except Exception:  # noqa: BLE001 (as above)
            return False
        return True


def encrypt(data: bytes, keys: KeySet) -> bytes:
    """`MAGIC | key id (16 ASCII) | nonce | AES-256-GCM(data)`."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    nonce = secrets.token_bytes(NONCE_BYTES)
    sealed = AESGCM(keys.keys[keys.current]).encrypt(nonce, data, ASSOCIATED_DATA)
    return MAGIC + keys.current.encode("ascii") + nonce + sealed


def blob_key_id(blob: bytes) -> str | None:
    """The id of the key a blob was encrypted with (None: not an encrypted blob)."""
    if not blob.startswith(MAGIC) or len(blob) < len(MAGIC) + 16 + NONCE_BYTES:
        return None
    return blob[len(MAGIC) : len(MAGIC) + 16].decode("ascii", errors="replace")


def decrypt(blob: bytes, keys: KeySet, checkpoint_id: str) -> bytes:
    """The plaintext of an encrypted blob; names a missing key or a tampered blob."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    kid = blob_key_id(blob)
    if kid is None:
        raise CheckpointCorruptedError(
            f"checkpoint {checkpoint_id} should be encrypted but its blob is not",
            checkpoint_id=checkpoint_id,
        )
    key = keys.keys.get(kid)
    if key is None:
        raise EncryptionKeyError(
            f"checkpoint {checkpoint_id} was encrypted with key {kid}, which this machine's key "
            f"store does not hold (it holds {', '.join(sorted(keys.keys))})",
            checkpoint_id=checkpoint_id,
            key_id=kid,
        )
    start = len(MAGIC) + 16
    nonce, sealed = blob[start : start + NONCE_BYTES], blob[start + NONCE_BYTES :]
    try:
        return bytes(AESGCM(key).decrypt(nonce, sealed, ASSOCIATED_DATA))
    except InvalidTag:
        raise CheckpointCorruptedError(
            f"checkpoint {checkpoint_id} failed its authentication check: the blob was changed",
            checkpoint_id=checkpoint_id,
        ) from None

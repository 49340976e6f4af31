"""The bearer token HTTP clients present: made at first need, kept in the data folder (0600)."""

from __future__ import annotations

import hmac
import logging
import os
import secrets
from pathlib import Path

from loci.errors import StorageUnavailableError
from loci.storage.files import PRIVATE_FILE_MODE, atomic_write, storage_errors

TOKEN_FILE = "http-token"
PREFIX = "loci_"
log = logging.getLogger("loci.http")


class BearerToken:
    """The data folder's HTTP token. A rotation by another process (`loci token rotate`)
    takes effect at the running server's next request: the file is read again when it changes."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.path = home / TOKEN_FILE
        self._seen: tuple[int, int] | None = None
        self._value = ""

    def value(self) -> str:
        """The token, made (and saved) when there is none yet."""
        state = self._state()
        if state is None:
            return self.rotate()
        if state != self._seen:
            with storage_errors(self.path, "read the HTTP token"):
                self._keep_private()
                text = self.path.read_text(encoding="utf-8").strip()
            if not text.startswith(PREFIX) or len(text) < len(PREFIX) + 32:
                raise StorageUnavailableError(
                    f"{self.path} does not hold a loci token; make a new one with "
                    "`loci token rotate`",
                    path=str(self.path),
                )
            self._seen, self._value = state, text
        return self._value

    def rotate(self) -> str:
        """Replace the token with a new random one; the old one stops working."""
        token = PREFIX + secrets.token_urlsafe(32)
        with storage_errors(self.path, "write the HTTP token"):
            atomic_write(self.path, (token + "\n").encode("utf-8"), root=self.home)
        self._seen, self._value = self._state(), token
        return token

    def matches(self, presented: str) -> bool:
        """Whether `presented` is the token (compared in constant time)."""
        return hmac.compare_digest(presented.encode("utf-8"), self.value().encode("utf-8"))

    def _keep_private(self) -> None:
        """Make the token file readable by the user only again if that has changed."""
        if os.stat(self.path).st_mode & 0o077:
            os.chmod(self.path, PRIVATE_FILE_MODE)
            log.warning("%s was readable by others: it is private again (0600)", self.path)

    def _state(self) -> tuple[int, int] | None:
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return None
        return found.st_mtime_ns, found.st_ino

"""The toy toolset's service: pin a note, read the pins."""

from __future__ import annotations

from pathlib import Path

from loci.storage.databases.db import Database


class Board:
    """The pinboard of one store."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def pin(self, note: str) -> int:
        """Pin `note`; how many pins there are now."""
        with self._db.write() as conn:
            conn.execute("INSERT INTO toy_pins (note) VALUES (?)", (note,))
            return int(conn.execute("SELECT count(*) FROM toy_pins").fetchone()[0])

    def pins(self) -> list[str]:
        """The pinned notes, oldest first."""
        with self._db.snapshot() as conn:
            rows = conn.execute("SELECT note FROM toy_pins ORDER BY rowid")
            return [str(row[0]) for row in rows]


def orphaned_files(db: Database, home: Path) -> list[str]:
    """A sentence when a pin file lies in the data folder but no pin is recorded."""
    if (home / "toy.pin").exists() and not Board(db).pins():
        return ["the database holds no pins, but toy.pin is there"]
    return []

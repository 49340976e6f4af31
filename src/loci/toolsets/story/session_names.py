"""How a story session not found is answered: the sessions named as it in another case, or
spelt closest to it, else those the data folder holds."""

from __future__ import annotations

import difflib

from loci.fields import shown
from loci.storage.databases.db import Connection

#: The most sessions a refusal lists by name.
SESSIONS_LISTED = 5


def sessions_like(conn: Connection, name: str) -> str:
    """A hint naming the sessions named as `name` in another case ("Gatsby": names are exact),
    else those spelt closest to it ("room" for "rooom"), else those there are (how many, of
    more than SESSIONS_LISTED)."""
    found = [row[0] for row in conn.execute("SELECT name FROM story_sessions ORDER BY name")]
    alike = [other for other in found if other.lower() == name.lower()]
    if alike:
        return f" (names are exact: did you mean {' or '.join(map(shown, alike))}?)"
    close = difflib.get_close_matches(name, found, n=3, cutoff=0.6)
    if close:
        return f" (did you mean {' or '.join(map(shown, close))}?)"
    if not found:
        return " in this data folder"
    if len(found) > SESSIONS_LISTED:
        return (
            f" (this data folder holds {len(found)}: list_story_sessions, `loci story stats`, "
            "lists them)"
        )
    return f" (this data folder holds {', '.join(map(shown, found))})"

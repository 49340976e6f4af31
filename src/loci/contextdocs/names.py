"""Names that end up in paths (project ids, file types, template names) and section keys."""

from __future__ import annotations

import re
import unicodedata

from loci.errors import InvalidInputError
from loci.memory.validation import shown

#: Letters, digits, '-' and '_': nothing that can climb out of a folder or name a device.
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}\Z")

_NOT_WORD = re.compile(r"[^a-z0-9]+")


def path_name(value: object, field: str) -> str:
    """A project id, file type or template name, refused unless it is safe as a file name."""
    if not isinstance(value, str) or not NAME_PATTERN.match(value):
        raise InvalidInputError(
            f"{field} must be 1-64 letters, digits, '-' or '_', got {shown(value)}", field=field
        )
    return value


def section_key(heading: str) -> str:
    """A heading as the key sections match on: "Known Issues!" and "known_issues" agree."""
    folded = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode().lower()
    return _NOT_WORD.sub("_", folded).strip("_")

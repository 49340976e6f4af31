"""Names that end up in paths (project ids, file types, template names), project paths and
names as users give them, and section keys."""

from __future__ import annotations

import os
import re
import unicodedata

from loci.errors import InvalidInputError
from loci.fields import shown

#: Letters, digits, '-' and '_': nothing that can climb out of a folder or name a device.
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}\Z")

#: The memory namespaces where projects' context files are indexed: `project:<id>`.
PROJECT_NAMESPACE_PREFIX = "project:"

_NOT_WORD = re.compile(r"[^a-z0-9]+")
MAX_PATH_CHARS = 4096


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


def absolute_path(path: str) -> str:
    """A project path as given, normalised; refused unless absolute."""
    if not isinstance(path, str) or not path.strip() or "\x00" in path:
        raise InvalidInputError(f"path must be a folder path, got {shown(path)}", field="path")
    if len(path) > MAX_PATH_CHARS:
        raise InvalidInputError(f"path is longer than {MAX_PATH_CHARS} characters", field="path")
    expanded = os.path.expanduser(path.strip())
    if not os.path.isabs(expanded):
        raise InvalidInputError(
            f"path must be absolute (the server's working folder is not the project's), "
            f"got {shown(path)}",
            field="path",
        )
    return os.path.normpath(expanded)


def existing_folder(path: str) -> str:
    """`path` if it is a folder that exists (a project lives in one)."""
    if not os.path.isdir(path):
        what = "a file, not a folder" if os.path.exists(path) else "not an existing folder"
        raise InvalidInputError(
            f"path {path} is {what}; a project is registered by its folder", field="path"
        )
    return path


def project_label(name: str) -> str:
    """A project's display name, trimmed."""
    if not isinstance(name, str) or not name.strip() or len(name) > 200 or "\x00" in name:
        raise InvalidInputError(f"name must be 1-200 characters, got {shown(name)}", field="name")
    return name.strip()

"""A corpus with known groups from public text: the docstrings of 30 standard-library modules
of the running Python, each module a group (`math` is about numbers, `tarfile` about archives).
Built at run time from the interpreter itself; nothing is copied into the repository."""

from __future__ import annotations

import importlib
import inspect
import re

MODULES = (
    "math", "statistics", "datetime", "re", "json", "sqlite3", "asyncio", "email.message",
    "http.client", "tarfile", "zipfile", "random", "unittest", "xml.etree.ElementTree",
    "urllib.parse", "socket", "threading", "decimal", "calendar", "shutil", "ssl", "logging",
    "argparse", "pathlib", "turtle", "csv", "difflib", "textwrap", "hashlib", "gzip",
)  # fmt: skip
PER_MODULE = 40


def corpus() -> tuple[list[str], list[int]]:
    """(texts, group of each text): the first paragraph of each public docstring, 40 chars or
    more, at most PER_MODULE per module, each text once."""
    texts: list[str] = []
    groups: list[int] = []
    seen: set[str] = set()
    for group, name in enumerate(MODULES):
        found = [t for t in _docstrings(importlib.import_module(name)) if t not in seen]
        for text in found[:PER_MODULE]:
            seen.add(text)
            texts.append(text)
            groups.append(group)
    return texts, groups


def _docstrings(module: object) -> list[str]:
    found: list[str] = []
    for attribute in sorted(dir(module)):
        if attribute.startswith("_"):
            continue
        value = getattr(module, attribute)
        members = [value]
        if inspect.isclass(value):
            members += [
                getattr(value, m, None) for m in sorted(vars(value)) if not m.startswith("_")
            ]
        for member in members:
            doc = inspect.getdoc(member) if member is not None else None
            if doc:
                paragraph = re.split(r"\n\s*\n", doc.strip())[0].replace("\n", " ")
                if len(paragraph) >= 40 and paragraph not in found:
                    found.append(paragraph)
    return found

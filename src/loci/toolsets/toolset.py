"""What a toolset is: a name, the tables it owns, and where its faces are.

A declaration holds no code of the toolset, only where to find it ("module" or
"module:attribute"), so that reading the registry costs nothing: the settings check names
against it, and the MCP server lists its tools from a saved listing before it imports any
toolset (see `loci.faces.mcp.tool_listing`). The faces import the parts they serve when they
are built; the same strings are what an entry point would hold.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from loci.storage.databases.db import Database
    from loci.storage.databases.schema import Schema

#: What an orphan check adds to each kind of file it finds.
ORPHAN_ADVICE = (
    "the database was emptied or replaced since they were written; stop loci and put back "
    "a backup of loci.db (docs/configuration.md: Troubleshooting)"
)


@dataclass(frozen=True)
class Toolset:
    """One toolset, as every face and the composition root see it.

    - `build`: "module:function" that builds its services from the engine's parts (a
      `loci.app.Core`); what it returns is `app.parts[name]` (None: it has no services of its
      own, its faces work on the database);
    - `schema`: "module:NAME" of the `Schema` of its tables (None: it keeps its data in the
      memory tables), migrated after the engine's own tables, in registry order;
    - `mcp`: modules whose `register(server, provider, settings)` adds its tools, prompts
      and resources, in the order they are listed;
    - `commands`: modules whose `register(group)` adds its command-line commands;
    - `pages`: modules whose `routes(view)` gives its web view's routes;
    - `orphans`: "module:function" that, given the database and the data folder, names the
      files the toolset wrote beside the database that the database has no record of;
    - `doctor`: "module:function" that adds what `loci doctor` reports of the toolset, given
      the app, the checks so far and the problems found so far;
    - `completions`: (argument, "module:function") pairs: the values a client is offered for
      a prompt's or resource template's argument of that name, read from the app.
    """

    name: str
    summary: str
    build: str | None = None
    schema: str | None = None
    mcp: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    pages: tuple[str, ...] = ()
    orphans: str | None = None
    doctor: str | None = None
    completions: tuple[tuple[str, str], ...] = ()

    def built(self, core: Any) -> object:
        """Its services, built from `core` (None if it declares no `build`)."""
        return None if self.build is None else resolved(self.build)(core)

    def tables(self) -> Schema | None:
        """The schema of its tables, if it has any."""
        return None if self.schema is None else resolved(self.schema)

    def mcp_modules(self) -> Iterator[ModuleType]:
        """The modules that register its tools, prompts and resources."""
        return (import_module(name) for name in self.mcp)

    def command_modules(self) -> Iterator[ModuleType]:
        """The modules that register its command-line commands."""
        return (import_module(name) for name in self.commands)

    def page_modules(self) -> Iterator[ModuleType]:
        """The modules that give its web pages."""
        return (import_module(name) for name in self.pages)

    def template_folders(self) -> list[Path]:
        """The `templates` folders beside its page modules (its web pages' templates)."""
        from pathlib import Path

        found = []
        for name in self.pages:
            spec = find_spec(name)
            folder = None if spec is None or spec.origin is None else Path(spec.origin).parent
            if folder is not None and (folder / "templates").is_dir():
                found.append(folder / "templates")
        return list(dict.fromkeys(found))

    def orphaned_files(self, db: Database, home: Path) -> list[str]:
        """One sentence per kind of its files that `db` has no record of at all."""
        if self.orphans is None:
            return []
        found: list[str] = resolved(self.orphans)(db, home)
        return found

    def doctor_check(self, app: Any, checks: dict[str, object], problems: list[str]) -> None:
        """Add what `loci doctor` reports of the toolset to `checks` and `problems`."""
        if self.doctor is not None:
            resolved(self.doctor)(app, checks, problems)


def completion_values(where: str, app: Any) -> list[str]:
    """The values the completion source at `where` ("module:function") offers."""
    found: list[str] = resolved(where)(app)
    return found


def resolved(where: str) -> Any:
    """What "module:name" names (the module is imported)."""
    module, _, name = where.partition(":")
    return getattr(import_module(module), name)

"""Namespaces and statistics of the memory store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

from loci import fields
from loci.engine.search.engine import MemoryEngine, require_namespace
from loci.errors import ConflictError, InvalidInputError
from loci.storage.databases.db import Database
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import upkeep
from loci.storage.memory_tables.change_log import prune_log
from loci.timeutil import now
from loci.toolsets.memory.models import NamespacesResult, StatsResult
from loci.toolsets.memory.rows import row_to_namespace
from loci.wording import counted

TOP_TAGS = 50
Action = Literal["list", "create", "delete", "rename"]


class CatalogService:
    """List, create, delete and rename namespaces; report figures about the store."""

    def __init__(
        self, db: Database, engine: MemoryEngine, warnings: Callable[[], list[str]] = lambda: []
    ) -> None:
        self._db = db
        self._engine = engine
        self._warnings = warnings  # what is wrong with the data folder around the database

    def namespaces(
        self, action: Action = "list", name: str | None = None, new_name: str | None = None
    ) -> NamespacesResult:
        """Carry out one namespace action."""
        if action == "list":
            with self._db.locked() as conn:
                listed = [row_to_namespace(row) for row in sql.list_namespaces(conn)]
            return NamespacesResult(
                action="list", namespaces=listed, message=counted(len(listed), "namespace")
            )
        if name is None:
            raise InvalidInputError(f"action {action!r} needs a namespace name", field="name")
        name = fields.namespace(name, "name")
        if action == "create":
            return self._create(name)
        if action == "delete":
            return self._delete(name)
        if action == "rename":
            if new_name is None:
                raise InvalidInputError("action 'rename' needs new_name", field="new_name")
            return self._rename(name, fields.namespace(new_name, "new_name"))
        raise InvalidInputError(f"unknown action {action!r}; use list, create, delete or rename")

    def stats(self, namespace: str | None = None) -> StatsResult:
        """Counts, dates, importance and tags, for the whole store or one namespace."""
        if namespace is not None:
            namespace = fields.namespace(namespace)
        with self._db.snapshot() as conn:
            if namespace is not None:
                require_namespace(conn, namespace)
            total, oldest, newest, average = upkeep.summary(conn, namespace)
            counts = {
                info.name: info.count
                for info in map(row_to_namespace, sql.list_namespaces(conn))
                if namespace is None or info.name == namespace
            }
            tags = upkeep.top_tags(conn, namespace, TOP_TAGS)
            stored_model = self._engine.stored_model(conn)
        identity = self._engine.embedder.identity
        return StatsResult(
            total_memories=int(total),
            namespaces=counts,
            embedding_model=stored_model or identity.name,
            embedding_dimensions=identity.dimensions,
            storage_path=_storage_place(self._db),
            storage_size_mb=round(self._db.size_bytes() / 1_000_000, 3),
            oldest_memory=oldest,
            newest_memory=newest,
            average_importance=None if average is None else round(float(average), 4),
            tag_distribution=tags,
            schema_version=self._db.schema_version(),
            model_loaded=self._engine.embedder.is_loaded,
            warnings=self.warnings(),
        )

    def namespaces_of(self, ids: list[str]) -> dict[str, str]:
        """The namespace of each of `ids` that is stored (others are left out)."""
        with self._db.locked() as conn:
            return sql.namespaces_of_ids(conn, ids)

    def warnings(self) -> list[str]:
        """What is wrong around the store: files of the data folder it has no record of."""
        return self._warnings()

    def _create(self, name: str) -> NamespacesResult:
        with self._db.write() as conn:
            if sql.namespace_exists(conn, name):
                raise ConflictError(f"namespace {name!r} already exists", namespace=name)
            sql.ensure_namespaces(conn, {name}, now())
        return NamespacesResult(
            action="create", created=name, message=f"namespace {name!r} created"
        )

    def _delete(self, name: str) -> NamespacesResult:
        with self._db.write() as conn:
            require_namespace(conn, name)
            removed = sql.delete_namespace(conn, name)
            prune_log(conn)
        self._engine.wrote()
        return NamespacesResult(
            action="delete",
            deleted=name,
            memories_removed=removed,
            message=f"namespace {name!r} deleted with {removed} memories",
        )

    def _rename(self, name: str, new_name: str) -> NamespacesResult:
        with self._db.write() as conn:
            require_namespace(conn, name)
            if sql.namespace_exists(conn, new_name):
                raise ConflictError(f"namespace {new_name!r} already exists", namespace=new_name)
            # ON UPDATE CASCADE moves the memories; their trigger logs the change for the index.
            moved = sql.rename_namespace(conn, name, new_name)
        self._engine.wrote()
        return NamespacesResult(
            action="rename",
            renamed=name,
            new_name=new_name,
            memories_moved=moved,
            message=f"namespace {name!r} renamed to {new_name!r} ({moved} memories)",
        )


def _storage_place(db: Database) -> str:
    """The data folder (SQLite), or the database's URL without its password."""
    return str(Path(db.location).parent) if db.engine == "sqlite" else db.location

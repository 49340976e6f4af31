"""What a token may reach of the memory toolset, by namespace.

A token reaches the namespaces it is limited to (every one when it is not), less those of the
context toolset (`project:<id>`, where context files are indexed) when it may not use that
toolset: a context file's memories follow the context toolset's grant.

Each call of a token whose reach is limited is scoped before it runs, by its arguments: a tool
that writes memories is given one of its namespaces (named by the caller, or filled in when the
token has one only; a token limited by toolset alone writes to the default namespace); `recall`
and `forget` without a namespace search every namespace the token reaches (filters are ANDed
with them); the other tools over many memories need one namespace; the memories a call names
by id must be in reach (others are answered as missing), and items of a batch or an import go
to namespaces in reach. The views over every namespace (`memory://stats`,
`memory://namespaces`) are refused, and lists of namespaces, completions of them and `stats`
show only what is in reach.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from loci.access.grant import Grant
from loci.errors import ForbiddenError, NotFoundError
from loci.toolsets.context.naming import PROJECT_NAMESPACE_PREFIX
from loci.wording import counted

if TYPE_CHECKING:
    from loci.faces.mcp.provider import AppProvider

#: Tools scoped by their `namespace` argument.
BY_NAMESPACE = frozenset(
    {
        "remember",
        "remember_batch",
        "recall",
        "nearby",
        "forget",
        "stats",
        "export_memories",
        "remember_conversation",
        "journey",
        "wander",
        "regions",
        "visualize",
        "decay",
        "consolidate",
        "extract",
    }
)
#: Tools that write to the default namespace when given none.
WRITE_TO_DEFAULT = frozenset({"remember", "remember_batch", "remember_conversation", "extract"})
#: Tools whose filters can hold the namespaces in reach, when given none.
FILTERED = frozenset({"recall", "forget"})
#: Arguments that name one memory by id, and the one that names several.
ID_ARGUMENTS = (
    "memory_id",
    "start_id",
    "end_id",
    "seed_id",
    "old_id",
    "new_id",
    "first_id",
    "second_id",
)
IDS_ARGUMENT = "memory_ids"
#: Resources that show every namespace.
EVERY_NAMESPACE = ("memory://stats", "memory://namespaces", "memory://conflicts")
#: Resources of one namespace, named at the end of their address.
NAMESPACE_RESOURCES = ("memory://namespaces/", "memory://conflicts/")
#: The most namespaces a filter may name (`search.filters.MAX_LIST`).
MAX_NAMESPACES_IN_FILTER = 1000
#: What `stats` says of the whole store, which a token of limited reach is not told.
STORE_WIDE_STATS: dict[str, Any] = {"storage_path": None, "storage_size_mb": None, "warnings": []}


@dataclass(frozen=True)
class Reach:
    """The namespaces of memories the holder of `grant` reaches."""

    grant: Grant

    @property
    def limited(self) -> bool:
        """Whether some namespaces are out of reach."""
        return self.grant.namespaces is not None or not self.context_files

    @property
    def context_files(self) -> bool:
        """Whether the token may use the context toolset (and so its namespaces)."""
        return self.grant.allows("context", writes=False)

    @property
    def only(self) -> str | None:
        """The token's one namespace, if it is limited to one."""
        listed = self.grant.namespaces
        return next(iter(listed)) if listed is not None and len(listed) == 1 else None

    def allows(self, namespace: str) -> bool:
        """Whether `namespace` is in reach."""
        if not self.context_files and namespace.startswith(PROJECT_NAMESPACE_PREFIX):
            return False
        return self.grant.namespaces is None or namespace in self.grant.namespaces

    def described(self) -> str:
        """The namespaces in reach, in words."""
        if self.grant.namespaces is not None:
            listed = sorted(n for n in self.grant.namespaces if self.allows(n))
            return f"the namespaces {', '.join(listed)}"
        return f"every namespace but the context toolset's ({PROJECT_NAMESPACE_PREFIX}...)"


class NamespaceScope:
    """Scopes the requests of tokens whose reach is limited."""

    def __init__(self, provider: AppProvider) -> None:
        self._provider = provider

    async def scoped(self, grant: Grant, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """The request's params as the token may send them; raises a loci error if it may not."""
        reach = Reach(grant)
        scoped = dict(params)
        given = params.get("arguments") or {}
        if not isinstance(given, Mapping):
            return scoped  # malformed: the SDK's own check refuses it
        if method == "tools/call":
            arguments = dict(given)
            await self._tool_arguments(reach, str(params.get("name", "")), arguments)
            scoped["arguments"] = arguments
        elif method == "prompts/get":
            arguments = dict(given)
            if params.get("name") in ("recall_about", "remember_this_session"):
                arguments["namespace"] = chosen(reach, arguments.get("namespace") or None)
            scoped["arguments"] = arguments
        elif method == "resources/read":
            uri = str(params.get("uri", ""))
            if uri in EVERY_NAMESPACE:
                raise _forbidden(reach, f"the resource {uri}, which shows every namespace")
            for prefix in NAMESPACE_RESOURCES:
                if uri.startswith(prefix):
                    chosen(reach, uri.removeprefix(prefix))
        return scoped

    def visible(
        self, grant: Grant, method: str, params: Mapping[str, Any], result: dict[str, Any]
    ) -> dict[str, Any]:
        """The answer without what lies outside the token's reach."""
        reach = Reach(grant)
        if method == "completion/complete" and "completion" in result:
            completion = result["completion"]
            values = [
                value
                for value in completion.get("values", [])
                if isinstance(value, str) and reach.allows(value)
            ]
            return {**result, "completion": {**completion, "values": values, "total": len(values)}}
        if method == "resources/list":
            kept = [r for r in result.get("resources", []) if r.get("uri") not in EVERY_NAMESPACE]
            return {**result, "resources": kept}
        structured = result.get("structuredContent")
        if method != "tools/call" or not isinstance(structured, dict) or result.get("isError"):
            return result
        tool = params.get("name")
        if tool == "namespaces" and structured.get("namespaces") is not None:
            kept = [item for item in structured["namespaces"] if reach.allows(item.get("name"))]
            message = counted(len(kept), "namespace")
            return _answer(result, {**structured, "namespaces": kept, "message": message})
        if tool == "stats":
            return _answer(result, {**structured, **STORE_WIDE_STATS})
        return result

    async def _tool_arguments(self, reach: Reach, tool: str, arguments: dict[str, Any]) -> None:
        if tool in BY_NAMESPACE:
            await self._namespace_argument(reach, tool, arguments)
        if tool == "import_memories":
            arguments["namespace_override"] = chosen(reach, arguments.get("namespace_override"))
        if tool == "import_chats" and (
            arguments.get("namespace") is not None or reach.grant.namespaces is not None
        ):
            # Without a namespace each app's conversations go to one named after it.
            arguments["namespace"] = chosen(reach, arguments.get("namespace"))
        memories = arguments.get("memories")
        if tool == "remember_batch" and isinstance(memories, list):
            for item in memories:
                if isinstance(item, dict) and item.get("namespace") is not None:
                    chosen(reach, item["namespace"])
        if tool == "namespaces" and arguments.get("action", "list") != "list":
            for key in ("name", "new_name"):
                if arguments.get(key) is not None:
                    chosen(reach, arguments[key])
        await self._named_memories(reach, arguments)

    async def _namespace_argument(self, reach: Reach, tool: str, arguments: dict[str, Any]) -> None:
        """The namespace of a call of a tool scoped by namespace (see the module docstring)."""
        named = arguments.get("namespace")
        if named is not None or reach.only is not None:
            arguments["namespace"] = chosen(reach, named)
        elif tool in WRITE_TO_DEFAULT and reach.grant.namespaces is None:
            chosen(reach, self._provider.settings.default_namespace)
        elif tool in FILTERED:
            arguments["filters"] = await self._within_reach(reach, arguments.get("filters"))
        else:
            chosen(reach, None)  # refused: name one

    async def _within_reach(self, reach: Reach, filters: Any) -> Any:
        """`filters` ANDed with the namespaces in reach."""
        if filters is not None and not isinstance(filters, Mapping):
            return filters  # malformed: the tool's own check refuses it
        listing = await anyio.to_thread.run_sync(
            self._provider.call, lambda app: app.catalog.namespaces("list")
        )
        names = [info.name for info in listing.namespaces or [] if reach.allows(info.name)]
        if len(names) > MAX_NAMESPACES_IN_FILTER:
            raise _forbidden(
                reach, f"more than {MAX_NAMESPACES_IN_FILTER} namespaces at once: name one"
            )
        # With none in reach yet, a name that holds nothing finds nothing.
        fallback = sorted(reach.grant.namespaces or [self._provider.settings.default_namespace])
        within = {"namespace": {"in": names or fallback}}
        return within if not filters else {"and": [dict(filters), within]}

    async def _named_memories(self, reach: Reach, arguments: dict[str, Any]) -> None:
        """Memories named by id out of reach are answered as missing."""
        named = [arguments.get(key) for key in ID_ARGUMENTS]
        listed = arguments.get(IDS_ARGUMENT)
        ids = [
            i for i in [*named, *(listed if isinstance(listed, list) else [])] if isinstance(i, str)
        ]
        if not ids:
            return
        found = await anyio.to_thread.run_sync(
            self._provider.call, lambda app: app.catalog.namespaces_of(ids)
        )
        for memory_id in ids:
            if memory_id in found and not reach.allows(found[memory_id]):
                raise NotFoundError(f"no memory with id {memory_id}", memory_id=memory_id)


def chosen(reach: Reach, namespace: object) -> Any:
    """The namespace a call of the token uses: the one it names, if in reach, or the token's
    only one. A value that is not text is left for the tool's own checks."""
    if namespace is None:
        if reach.only is not None:
            return reach.only
        raise _forbidden(reach, "every namespace at once: name one (namespace)")
    if isinstance(namespace, str) and not reach.allows(namespace):
        raise _forbidden(reach, f"the namespace {namespace[:128]!r}")
    return namespace


def _answer(result: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
    """A tool's answer (its wire form) with `shown` as its structured content and text."""
    text = json.dumps(shown, indent=2, ensure_ascii=False)
    return {**result, "structuredContent": shown, "content": [{"type": "text", "text": text}]}


def _forbidden(reach: Reach, what: str) -> ForbiddenError:
    return ForbiddenError(
        f"the token {reach.grant.name!r} may not use {what}; it is allowed {reach.described()}",
        token=reach.grant.name,
    )

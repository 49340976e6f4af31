"""What a token limited to some namespaces may reach of the memory toolset.

Each call is scoped before it runs, by its arguments: a tool that searches, lists or writes
memories is given one of the token's namespaces (named by the caller, or filled in when the
token has one only; filters are ANDed with it by the services), the memories a call names by id
must be of those namespaces (others are answered as missing), and items of a batch or an import
go to them. The views over every namespace (`memory://stats`, `memory://namespaces`) are
refused, and a list of namespaces or completions of them show the token's own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from loci.access.grant import Grant
from loci.errors import ForbiddenError, NotFoundError

if TYPE_CHECKING:
    from loci.mcp.provider import AppProvider

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
#: Arguments that name one memory by id, and the one that names several.
ID_ARGUMENTS = ("memory_id", "start_id", "end_id", "seed_id")
IDS_ARGUMENT = "memory_ids"
#: Resources that show every namespace.
EVERY_NAMESPACE = ("memory://stats", "memory://namespaces")
NAMESPACE_RESOURCE = "memory://namespaces/"


class NamespaceScope:
    """Scopes the requests of namespace-limited tokens."""

    def __init__(self, provider: AppProvider) -> None:
        self._provider = provider

    async def scoped(self, grant: Grant, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """The request's params as the token may send them; raises a loci error if it may not."""
        scoped = dict(params)
        given = params.get("arguments") or {}
        if not isinstance(given, Mapping):
            return scoped  # malformed: the SDK's own check refuses it
        if method == "tools/call":
            arguments = dict(given)
            await self._tool_arguments(grant, str(params.get("name", "")), arguments)
            scoped["arguments"] = arguments
        elif method == "prompts/get":
            arguments = dict(given)
            if params.get("name") in ("recall_about", "remember_this_session"):
                arguments["namespace"] = chosen(grant, arguments.get("namespace") or None)
            scoped["arguments"] = arguments
        elif method == "resources/read":
            uri = str(params.get("uri", ""))
            if uri in EVERY_NAMESPACE:
                raise _forbidden(grant, f"the resource {uri}, which shows every namespace")
            if uri.startswith(NAMESPACE_RESOURCE):
                chosen(grant, uri.removeprefix(NAMESPACE_RESOURCE))
        return scoped

    def visible(
        self, grant: Grant, method: str, params: Mapping[str, Any], result: dict[str, Any]
    ) -> dict[str, Any]:
        """The answer without what lies outside the token's namespaces."""
        owned = grant.namespaces or frozenset()
        if method == "completion/complete" and "completion" in result:
            completion = result["completion"]
            values = [value for value in completion.get("values", []) if value in owned]
            return {**result, "completion": {**completion, "values": values, "total": len(values)}}
        if method == "resources/list":
            kept = [r for r in result.get("resources", []) if r.get("uri") not in EVERY_NAMESPACE]
            return {**result, "resources": kept}
        listing = method == "tools/call" and params.get("name") == "namespaces"
        structured = result.get("structuredContent")
        if listing and isinstance(structured, dict) and structured.get("namespaces") is not None:
            kept = [item for item in structured["namespaces"] if item.get("name") in owned]
            shown = {**structured, "namespaces": kept}
            text = json.dumps(shown, indent=2, ensure_ascii=False)
            return {
                **result,
                "structuredContent": shown,
                "content": [{"type": "text", "text": text}],
            }
        return result

    async def _tool_arguments(self, grant: Grant, tool: str, arguments: dict[str, Any]) -> None:
        owned = grant.namespaces or frozenset()
        if tool in BY_NAMESPACE:
            arguments["namespace"] = chosen(grant, arguments.get("namespace"))
        if tool == "import_memories":
            arguments["namespace_override"] = chosen(grant, arguments.get("namespace_override"))
        memories = arguments.get("memories")
        if tool == "remember_batch" and isinstance(memories, list):
            for item in memories:
                if isinstance(item, dict) and item.get("namespace") is not None:
                    chosen(grant, item["namespace"])
        if tool == "namespaces" and arguments.get("action", "list") != "list":
            for key in ("name", "new_name"):
                if arguments.get(key) is not None:
                    chosen(grant, arguments[key])
        named = [arguments.get(key) for key in ID_ARGUMENTS]
        listed = arguments.get(IDS_ARGUMENT)
        ids = [
            i for i in [*named, *(listed if isinstance(listed, list) else [])] if isinstance(i, str)
        ]
        if ids:
            found = await anyio.to_thread.run_sync(
                self._provider.call, lambda app: app.catalog.namespaces_of(ids)
            )
            for memory_id in ids:
                if memory_id in found and found[memory_id] not in owned:
                    raise NotFoundError(f"no memory with id {memory_id}", memory_id=memory_id)


def chosen(grant: Grant, namespace: object) -> Any:
    """The namespace a call of the token uses: the one it names, if the token has it, or the
    token's only one. A value that is not text is left for the tool's own checks."""
    owned = sorted(grant.namespaces or ())
    if namespace is None:
        if len(owned) == 1:
            return owned[0]
        raise _forbidden(grant, f"every namespace: name one of {', '.join(owned)} (namespace)")
    if isinstance(namespace, str) and namespace not in owned:
        raise _forbidden(grant, f"the namespace {namespace[:128]!r}")
    return namespace


def _forbidden(grant: Grant, what: str) -> ForbiddenError:
    spaces = ", ".join(sorted(grant.namespaces or ()))
    return ForbiddenError(
        f"the token {grant.name!r} may not use {what}: it is allowed the namespaces {spaces}",
        token=grant.name,
    )

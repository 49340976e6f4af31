"""What a named access token may do over HTTP: its toolsets' tools, prompts, resources and
completions, and only the read-only tools if it may not write. Everything else is hidden from
its listings and refused (`forbidden`) when asked for by name. A token limited to namespaces
is also scoped to them (`namespace_scope`).

The HTTP guard puts the request's grant in its ASGI scope; a request without one (stdio, the
data folder's own token, a server without tokens) may do everything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_REQUEST, ToolAnnotations

from loci.access.grant import Grant
from loci.errors import ForbiddenError, LociError
from loci.faces.mcp.completions import argument_toolsets
from loci.faces.mcp.errors import from_loci_error
from loci.faces.mcp.namespace_scope import NamespaceScope, Reach

if TYPE_CHECKING:
    from loci.faces.mcp.server import LociServer

#: The key of the ASGI scope under which the HTTP guard leaves the request's grant.
GRANT_KEY = "loci.grant"
#: The list results the middleware filters (as the wire has them), by method: the field
#: holding the items, and the field of an item naming it.
LISTED = {
    "tools/list": ("tools", "name"),
    "prompts/list": ("prompts", "name"),
    "resources/list": ("resources", "uri"),
    "resources/templates/list": ("resourceTemplates", "uriTemplate"),
}


@dataclass
class Owners:
    """The toolset each tool and prompt belongs to (resources are named by their scheme)."""

    tools: dict[str, str] = field(default_factory=dict)
    prompts: dict[str, str] = field(default_factory=dict)
    #: The tools whose annotations say they only read.
    readers: set[str] = field(default_factory=set)

    def add_tool(self, name: str, toolset: str, hints: ToolAnnotations | None) -> None:
        """Record a tool as `toolset`'s, and whether it only reads."""
        self.tools[name] = toolset
        if hints is not None and hints.read_only_hint:
            self.readers.add(name)


class GrantCheck:
    """Server middleware applying the request's grant."""

    def __init__(self, server: LociServer) -> None:
        self._server = server
        self._scope = NamespaceScope(server.provider)

    async def middleware(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """Refuse what the grant does not allow; scope the rest; hide it from the listings.
        What the request runs is served for the grant's holder (`AppProvider.caller`)."""
        grant = grant_of(ctx)
        with self._server.provider.calling_as(grant):
            if grant is None or not grant.limited:
                return await call_next(ctx)
            return await self._limited(grant, ctx, call_next)

    async def _limited(
        self, grant: Grant, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        await self._server.toolsets_built()
        params: Mapping[str, Any] = ctx.params or {}
        scoped = Reach(grant).limited
        try:
            refusal = self._refusal(grant, ctx.method, params)
            if refusal is not None:
                raise refusal
            if scoped:
                params = await self._scope.scoped(grant, ctx.method, params)
                ctx = replace(ctx, params=params)
        except LociError as error:
            if ctx.method == "tools/call":
                return from_loci_error(error)
            raise MCPError(INVALID_REQUEST, error.message, error.to_dict()) from error
        result = await call_next(ctx)
        if not isinstance(result, dict):
            return result
        if ctx.method in LISTED:
            result = self._visible(grant, ctx.method, result)
        if scoped:
            result = self._scope.visible(grant, ctx.method, params, result)
        return result

    def _refusal(
        self, grant: Grant, method: str, params: Mapping[str, Any]
    ) -> ForbiddenError | None:
        what, toolset, writes = self._asked(method, params)
        if toolset is None or grant.allows(toolset, writes):
            return None
        reason = (
            "it may only read"
            if grant.allows(toolset, False)
            else f"the {toolset} toolset is not among its toolsets"
        )
        return ForbiddenError(
            f"the token {grant.name!r} may not use {what}: {reason} "
            "(`loci token list` shows what each token may do)",
            token=grant.name,
        )

    def _asked(self, method: str, params: Mapping[str, Any]) -> tuple[str, str | None, bool]:
        """What a request asks for, its toolset (None: nothing of one) and whether it writes."""
        owners = self._server.owners
        if method == "tools/call":
            name = str(params.get("name", ""))
            return f"the tool {name}", owners.tools.get(name), self._writes(name)
        if method == "prompts/get":
            name = str(params.get("name", ""))
            return f"the prompt {name}", owners.prompts.get(name), False
        if method == "resources/read":
            uri = str(params.get("uri", ""))
            return f"the resource {uri[:200]}", scheme_of(uri), False
        if method == "completion/complete":
            # The values come from the argument's toolset, whatever prompt or template asks.
            asked = params.get("argument")
            argument = str(asked.get("name", "")) if isinstance(asked, Mapping) else ""
            return f"completions of {argument[:100]}", argument_toolsets().get(argument), False
        return method, None, False

    def _writes(self, tool_name: str) -> bool:
        return tool_name not in self._server.owners.readers

    def _visible(self, grant: Grant, method: str, result: dict[str, Any]) -> dict[str, Any]:
        """The listing (its wire form) without what the grant does not allow."""
        items_field, name_field = LISTED[method]
        owners = self._server.owners
        kept = []
        for item in result.get(items_field, []):
            name = str(item.get(name_field, ""))
            if method == "tools/list":
                allowed = grant.allows(owners.tools.get(name, ""), self._writes(name))
            elif method == "prompts/list":
                allowed = grant.allows(owners.prompts.get(name, ""), False)
            else:
                allowed = grant.allows(scheme_of(name) or "", False)
            if allowed:
                kept.append(item)
        return {**result, items_field: kept}


def grant_of(ctx: ServerRequestContext[Any, Any]) -> Grant | None:
    """The grant the HTTP guard found for the request, if any."""
    scope = getattr(ctx.request, "scope", None)
    if not isinstance(scope, Mapping):
        return None
    grant = scope.get(GRANT_KEY)
    return grant if isinstance(grant, Grant) else None


def scheme_of(uri: str) -> str | None:
    """A resource's toolset: its URI's scheme (memory://, context://, ...)."""
    return urlsplit(uri).scheme or None

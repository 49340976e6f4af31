"""Completions for the arguments of prompts and resource templates: the names a user would
otherwise have to remember (namespaces, project ids, context-file templates, checkpoint
sessions), offered as they type."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from mcp.types import Completion, CompletionArgument, CompletionContext

from loci import toolsets as registry
from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings
from loci.toolsets.toolset import completion_values

if TYPE_CHECKING:
    from loci.app import App

#: The most values one answer may carry (the MCP specification's limit).
MAX_VALUES = 100
Source = Callable[["App"], list[str]]


def argument_toolsets() -> dict[str, str]:
    """The toolset whose data each completable argument's values come from."""
    return {
        argument: toolset.name
        for toolset in registry.TOOLSETS
        for argument, _ in toolset.completions
    }


def sources(settings: Settings) -> dict[str, Source]:
    """Where the values of each completable argument come from, for the enabled toolsets."""
    return {
        argument: partial(completion_values, where)
        for toolset in registry.TOOLSETS
        if toolset.name in settings.toolsets
        for argument, where in toolset.completions
    }


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Answer `completion/complete` on `server` (any prompt or template argument so named)."""
    by_argument = sources(settings)

    async def complete(
        ref: Any, argument: CompletionArgument, context: CompletionContext | None
    ) -> Completion | None:
        del ref, context  # arguments of one name mean the same thing everywhere in loci
        source = by_argument.get(argument.name)
        if source is None:
            return None
        values = await anyio.to_thread.run_sync(provider.call, source)
        return matching(values, argument.value)

    server.completion()(complete)


def matching(values: list[str], typed: str) -> Completion:
    """The values that start with what was typed (ignoring case), at most MAX_VALUES."""
    prefix = typed.casefold()
    found = [value for value in values if value.casefold().startswith(prefix)]
    return Completion(values=found[:MAX_VALUES], total=len(found), has_more=len(found) > MAX_VALUES)

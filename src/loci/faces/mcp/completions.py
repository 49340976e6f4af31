"""Completions for the arguments of prompts and resource templates: the names a user would
otherwise have to remember (namespaces, project ids, context-file templates, checkpoint
sessions), offered as they type."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from mcp.types import Completion, CompletionArgument, CompletionContext

from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings

if TYPE_CHECKING:
    from loci.app import App

#: The most values one answer may carry (the MCP specification's limit).
MAX_VALUES = 100
#: Sessions read for completion: the most recently saved ones.
MAX_SESSIONS = 1000

Source = Callable[["App"], list[str]]


#: The toolset whose data each completable argument's values come from.
ARGUMENT_TOOLSETS = {
    "namespace": "memory",
    "project_id": "context",
    "file_type": "context",
    "template": "context",
    "session_id": "checkpoints",
}


def sources(settings: Settings) -> dict[str, Source]:
    """Where the values of each completable argument come from, for the enabled toolsets."""
    every: dict[str, Source] = {
        "namespace": _namespaces,
        "project_id": _projects,
        "file_type": _templates,
        "template": _templates,
        "session_id": _sessions,
    }
    return {
        argument: source
        for argument, source in every.items()
        if ARGUMENT_TOOLSETS[argument] in settings.toolsets
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


def _namespaces(app: App) -> list[str]:
    listed = app.catalog.namespaces("list").namespaces or []
    return [info.name for info in listed]


def _projects(app: App) -> list[str]:
    return [project.project_id for project in app.context.list_projects().projects]


def _templates(app: App) -> list[str]:
    return [template.name for template in app.context.templates.listing().templates]


def _sessions(app: App) -> list[str]:
    listed = app.checkpoints.list_sessions(limit=MAX_SESSIONS).sessions
    return [session.session_id for session in listed]

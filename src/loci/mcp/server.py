"""The MCP server: instructions, toolsets, resources, and error mapping in one place."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import Tool
from pydantic import ValidationError

from loci import __version__
from loci.errors import LociError
from loci.mcp import checkpoint_tools, context_tools, conversation_tools, memory_tools
from loci.mcp.errors import from_loci_error, from_validation_error, internal_error
from loci.mcp.provider import AppProvider
from loci.settings import Settings

log = logging.getLogger("loci.mcp")

INSTRUCTIONS = """\
loci is your long-term memory. It keeps what you store across conversations, on this machine.

Remember (`remember`, `remember_batch`) when you learn something worth keeping beyond this
conversation: the user's preferences, decisions and their reasons, facts about people and
projects, how problems were solved, things the user asks you to remember. Store one
self-contained fact per memory, phrased so it makes sense without this conversation; add tags
and an importance (0-1). Use a namespace per project or topic.

Recall (`recall`) before you answer questions that may depend on earlier conversations, when
the user refers to something from the past ("like last time", "my usual setup"), and at the
start of work on a project. Recall is hybrid (meaning + keywords); filter by namespace, tags,
dates or metadata. Use `nearby` to explore around a memory, `forget` to delete what is wrong or
outdated (try `dry_run` first for filters), and `stats` / `namespaces` to see what is stored.
To keep a whole chat history searchable, store it with `remember_conversation` (one memory per
message, with speaker, session and time); recall then also brings the turns around a match.
Name the period or the person in the query when you know it ("what did Ana say about the trip
in May 2023?"): recall favours memories from that period and that speaker's turns.

Project context files (mental_model, session_summary, bugs, features) carry what you know about
a code project from one session to the next. At the start of work on a project call
`init_project` with its absolute path, then `get_context` for each file. Before a session ends,
write the session summary and update the other files with `update_context`: it checks the
document against its template and, when something is wrong, saves nothing and returns
`correction_guidance`; apply every step and call again with the whole document. Saved files are
indexed in memory (namespace `project:<id>`), so `recall` finds them too.

Checkpoints carry a long workflow across chats: when a task will outlast this conversation, call
`workflow_checkpoint_save` with your working context (goals, decisions, constraints, plan,
progress, open questions) at each milestone and before the conversation runs out of room, and
reuse the returned sessionId. In a new chat, `list_sessions` and `workflow_checkpoint_load`
bring it back. Pin what must never be cut with `workflow_mark_critical`.
"""


class LociServer(MCPServer[Any]):
    """MCPServer whose tool failures all carry loci's structured error object."""

    def __init__(self, provider: AppProvider, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.provider = provider

    async def list_tools(self) -> list[Tool]:
        """List tools, then start loading the model so the first call does not wait for it."""
        tools = await super().list_tools()
        self.provider.warm_up_in_background()
        return tools

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        """Call a tool; loci errors and bad arguments come back as structured tool errors."""
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, LociError):
                return from_loci_error(cause)
            if isinstance(cause, ValidationError):
                return from_validation_error(name, cause)
            if cause is None:
                raise  # unknown tool: the SDK's own message says so
            log.error("tool %s crashed", name, exc_info=cause)
            return internal_error(name)


def build_server(settings: Settings) -> LociServer:
    """The MCP server for `settings`, with the enabled toolsets registered."""
    provider = AppProvider(settings)

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[None]:
        try:
            yield None
        finally:
            provider.close()

    server = LociServer(
        provider,
        name="loci",
        title="loci memory",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        log_level=settings.log_level,
    )
    if "memory" in settings.toolsets:
        memory_tools.register(server, provider, settings)
        conversation_tools.register(server, provider, settings)
    if "context" in settings.toolsets:
        context_tools.register(server, provider, settings)
    if "checkpoints" in settings.toolsets:
        checkpoint_tools.register(server, provider, settings)
    return server

"""The MCP server: instructions, toolsets, resources, and error mapping in one place."""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any, cast

import anyio.to_thread
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.prompts import Prompt as PromptTemplate
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    GetPromptResult,
    Icon,
    InputRequiredResult,
    Prompt,
    Resource,
    ResourceTemplate,
    SetLevelRequestParams,
    Tool,
    ToolAnnotations,
)
from pydantic import AnyUrl, ValidationError

from loci import __version__
from loci.errors import LociError
from loci.faces.mcp import completions
from loci.faces.mcp.client_log import ClientLog
from loci.faces.mcp.errors import (
    from_loci_error,
    from_validation_error,
    internal_error,
    unknown_tool,
)
from loci.faces.mcp.grants import GrantCheck, Owners
from loci.faces.mcp.provider import AppProvider
from loci.faces.mcp.tool_listing import ToolListing
from loci.settings import Settings

if TYPE_CHECKING:
    from loci.engine.embedding import Embedder

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
`import_chats` brings in a ChatGPT or Claude.ai export or Claude Code, Codex or Gemini CLI logs.
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
    """MCPServer whose tool failures all carry loci's structured error object, and whose
    toolsets are built when first needed: a start that finds its tool listing saved (see
    `tool_listing`) answers `tools/list` from it and builds the tools in the background."""

    def __init__(
        self,
        provider: AppProvider,
        toolsets: Callable[[LociServer], None],
        listing: ToolListing,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.client_log = ClientLog()
        self.middleware.append(self.client_log.middleware)
        self._lowlevel_server.add_request_handler(
            "logging/setLevel", SetLevelRequestParams, self.client_log.set_level
        )
        self.provider = provider
        self.owners = Owners()
        self.middleware.append(GrantCheck(self).middleware)
        self._toolsets = toolsets
        self._listing = listing
        self._built = threading.Event()
        self._build_lock = threading.Lock()
        self._listed = False
        self._registering = ""

    def build_toolsets(self) -> None:
        """Register every tool and resource of the enabled toolsets (once; thread-safe)."""
        with self._build_lock:
            if not self._built.is_set():
                self._toolsets(self)
                self._built.set()

    def add_tool(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: ToolAnnotations | None = None,
        icons: list[Icon] | None = None,
        meta: dict[str, Any] | None = None,
        structured_output: bool | None = None,
    ) -> None:
        """Add a tool whose arguments are checked as its schema says (see `strict`)."""
        from loci.faces.mcp.strict import make_strict

        tool = self._tool_manager.add_tool(
            fn,
            name=name,
            title=title,
            description=description,
            annotations=annotations,
            icons=icons,
            meta=meta,
            structured_output=structured_output,
        )
        make_strict(tool)
        self.owners.add_tool(tool.name, self._registering, tool.annotations)

    def add_prompt(self, prompt: PromptTemplate) -> None:
        """Add a prompt, recording the toolset being registered as its owner."""
        super().add_prompt(prompt)
        self.owners.prompts[prompt.name] = self._registering

    @contextmanager
    def registering(self, toolset: str) -> Iterator[None]:
        """Within: what is added belongs to `toolset`."""
        self._registering = toolset
        try:
            yield
        finally:
            self._registering = ""

    async def list_tools(self) -> list[Tool]:
        """List tools (at the first call, from the saved listing when it matches: the tools
        are then built in the background), and start loading the model in the background."""
        first, self._listed = not self._listed, True
        saved = self._listing.load() if first else None
        if saved is not None and not self._built.is_set():
            threading.Thread(target=self.build_toolsets, name="loci-tools", daemon=True).start()
            tools = saved
        else:
            await self.toolsets_built()
            tools = await super().list_tools()
            if first and saved is None:
                self._listing.save(tools)
        self.provider.warm_up_in_background()
        return tools

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        """Call a tool; loci errors and bad arguments come back as structured tool errors."""
        await self.toolsets_built()
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, LociError):
                return from_loci_error(cause)
            if isinstance(cause, ValidationError):
                return from_validation_error(name, cause)
            if cause is None and name not in self.owners.tools:
                return from_loci_error(unknown_tool(name))
            log.error("tool %s crashed", name, exc_info=cause)
            return internal_error(name)

    async def list_prompts(self) -> list[Prompt]:
        """List prompts (the toolsets register them)."""
        await self.toolsets_built()
        return await super().list_prompts()

    async def get_prompt(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        context: Context[Any, Any] | None = None,
    ) -> GetPromptResult | InputRequiredResult:
        """Render a prompt; a loci error (an unknown project, say) reaches the client with its
        message, as a JSON-RPC error whose data is the error object."""
        await self.toolsets_built()
        try:
            return await super().get_prompt(name, arguments, context)
        except ValueError as exc:
            cause = loci_cause(exc)
            if cause is None:
                raise
            raise MCPError(INVALID_PARAMS, cause.message, cause.to_dict()) from exc

    async def list_resources(self) -> list[Resource]:
        """List resources (the toolsets register them)."""
        await self.toolsets_built()
        return await super().list_resources()

    async def list_resource_templates(self) -> list[ResourceTemplate]:
        """List resource templates (the toolsets register them)."""
        await self.toolsets_built()
        return await super().list_resource_templates()

    async def read_resource(
        self, uri: AnyUrl | str, context: Context[Any, Any] | None = None
    ) -> Iterable[ReadResourceContents] | InputRequiredResult:
        """Read a resource (the toolsets register them)."""
        await self.toolsets_built()
        return await super().read_resource(uri, context)

    async def run_stdio_async(self) -> None:
        """Serve over stdio, answering every request the SDK's transport cannot read."""
        from loci.faces.mcp.wire import answering_stdio

        server = self._lowlevel_server
        async with answering_stdio() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    async def toolsets_built(self) -> None:
        """Wait until every tool, resource and prompt is registered."""
        if not self._built.is_set():
            # In a worker thread: the background build may hold the lock for a few ms.
            await anyio.to_thread.run_sync(self.build_toolsets)


def build_server(settings: Settings, embedder: Embedder | None = None) -> LociServer:
    """The MCP server for `settings`; its enabled toolsets are registered on first need.
    `embedder` replaces the configured model (tests share one)."""
    provider = AppProvider(settings, embedder)

    @asynccontextmanager
    async def lifespan(server: MCPServer[Any]) -> AsyncIterator[None]:
        client_log = cast(LociServer, server).client_log
        client_log.attach()
        try:
            yield None
        finally:
            client_log.detach()
            provider.close()

    server = LociServer(
        provider,
        lambda server: register_toolsets(server, provider, settings),
        ToolListing(settings),
        name="loci",
        title="loci memory",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        log_level=settings.log_level,
    )
    completions.register(server, provider, settings)  # now: its capability is announced at start
    return server


def loci_cause(exc: BaseException) -> LociError | None:
    """The loci error an SDK exception wraps, however deep."""
    cause = exc.__cause__
    while cause is not None and not isinstance(cause, LociError):
        cause = cause.__cause__
    return cause


def register_toolsets(server: LociServer, provider: AppProvider, settings: Settings) -> None:
    """Add the tools, resources and prompts of the toolsets `settings` enables; the server
    records which toolset each tool and prompt belongs to as they are added."""
    from loci import toolsets as registry

    for toolset in registry.TOOLSETS:
        if toolset.name not in settings.toolsets:
            continue
        with server.registering(toolset.name):
            for module in toolset.mcp_modules():
                module.register(server, provider, settings)

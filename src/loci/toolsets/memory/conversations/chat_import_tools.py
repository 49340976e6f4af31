"""The `import_chats` tool: another app's chat export into memory."""

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.types import ToolAnnotations
from pydantic import Field

from loci.errors import ForbiddenError, InvalidInputError
from loci.faces.mcp.provider import AppProvider, progress_reporter
from loci.faces.mcp.strict import byte_limited_text
from loci.settings import Settings
from loci.toolsets.memory.conversations.models import ChatImportReport
from loci.toolsets.memory.tools import Namespace

if TYPE_CHECKING:
    from loci.toolsets.memory.conversations.chat_imports import ImportProgress

Format = Literal["chatgpt", "claude", "claude-code", "codex", "gemini"]


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add `import_chats` to `server`."""

    def import_chats(
        ctx: Context,
        path: Annotated[
            str | None,
            Field(
                max_length=4096,
                description=(
                    "A zip, folder or file on the machine loci runs on (the owner only). "
                    "Give path or content."
                ),
            ),
        ] = None,
        content: Annotated[
            str | None,
            byte_limited_text(settings.http_max_body_bytes),
            Field(description="The text of one export file (a conversations.json, a .jsonl log)."),
        ] = None,
        format: Annotated[
            Format | None, Field(description="The app that wrote it (default: told from it).")
        ] = None,
        namespace: Annotated[
            Namespace | None, Field(description="Where to store (default: the app's name).")
        ] = None,
        all_branches: Annotated[
            bool, Field(description="Also keep edited and regenerated branches.")
        ] = False,
        dry_run: Annotated[bool, Field(description="Only say what would be stored.")] = False,
    ) -> ChatImportReport:
        """Import the conversations of a ChatGPT or Claude.ai data export, or of Claude Code,
        Codex CLI or Gemini CLI logs: each conversation a sequence of memories, one per
        message ("User: ...", "ChatGPT: ..."), with its time, title and app in the metadata.
        Only the thread the person kept is read (other branches with all_branches); thinking,
        system text and hidden nodes are left out. Importing again stores only new messages."""
        from pathlib import Path

        from loci.toolsets.memory.conversations.chat_imports import ChatImportOptions
        from loci.toolsets.memory.conversations.exports.files import ExportFile

        if (path is None) == (content is None):
            raise InvalidInputError("give either path or content", field="path")
        if path is not None and provider.caller is not None:
            raise ForbiddenError(
                "reading files on the server's machine is for its owner; send the file's "
                "text as content",
                field="path",
            )
        options = ChatImportOptions(format, namespace, all_branches, dry_run)
        report = progress_reporter(ctx, "importing chats")
        service = provider.app().chat_imports

        def locked(work: Callable[[], list[str]]) -> list[str]:
            return provider.call(lambda _app: work())  # one batch at a time: calls go on

        def progress(step: "ImportProgress") -> None:
            report(step.bytes_done, step.bytes_total)

        if path is not None:
            return service.import_path(Path(path), options, progress, locked)
        file = ExportFile.of_text("content", content or "")
        return service.import_files([file], options, progress, locked, "content", "content")

    server.add_tool(
        import_chats,
        title="Import chat history",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=True
        ),
        structured_output=True,
    )

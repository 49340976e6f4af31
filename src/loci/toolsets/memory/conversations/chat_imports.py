"""Import the chat history people hold in other apps (ChatGPT, Claude.ai, Claude Code, Codex
CLI, Gemini CLI): each conversation a sequence of memories, one per message, as
`remember_conversation` stores them, keyed by the app's own ids so that importing a newer
export adds only what is new."""

from __future__ import annotations

import string
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from loci import fields
from loci.engine.sequences import conversations
from loci.errors import InvalidInputError
from loci.storage.databases.db import Database
from loci.timeutil import format_time
from loci.toolsets.memory.conversations.exports import (
    chatgpt,
    claude_ai,
    claude_code,
    codex,
    gemini,
)
from loci.toolsets.memory.conversations.exports.detect import format_of, looks_like_messages
from loci.toolsets.memory.conversations.exports.documents import (
    Records,
    UnreadableError,
    open_records,
)
from loci.toolsets.memory.conversations.exports.files import ExportFile, export_files
from loci.toolsets.memory.conversations.exports.records import (
    APPS,
    Conversation,
    Skipped,
    Tally,
)
from loci.toolsets.memory.conversations.exports.shaping import clean, parts
from loci.toolsets.memory.conversations.importer import draft
from loci.toolsets.memory.conversations.messages import ChatMessage
from loci.toolsets.memory.conversations.models import (
    ChatImportReport,
    ImportedConversation,
    SkippedPart,
)
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.service import MemoryService

Reader = Callable[[Iterator[dict[str, object]], Tally, bool], Iterator[Conversation | Skipped]]
READERS: dict[str, Reader] = {
    "chatgpt": chatgpt.read,
    "claude": claude_ai.read,
    "claude-code": claude_code.read,
    "codex": codex.read,
    "gemini": gemini.read,
}
#: Messages embedded and stored together (the embedding window: as `import_memories` does).
BATCH = 1024
#: Conversations listed in a report (all are counted).
LISTED = 200
SPEAKERS = {"user": "User", "tool": "Tool"}
TITLE_CHARS = 200
OPENING_CHARS = 80
ID_CHARACTERS = frozenset(string.ascii_letters + string.digits + "_.:-")
#: Room left in a sequence's name (128 characters) for `/branch-N`.
KEY_CHARS = 110
PROJECT_CHARS = 512

#: Runs one batch's write: directly, or as one call of a server that serialises its calls.
Call = Callable[[Callable[[], list[str]]], list[str]]


@dataclass(frozen=True)
class ImportProgress:
    """How far an import has come."""

    bytes_done: int
    bytes_total: int
    conversations: int
    messages: int  # stored (or, in a dry run, that would be)


@dataclass(frozen=True)
class ChatImportOptions:
    """How to import: the format (None: told from each file), where to, which branches."""

    format: str | None = None
    namespace: str | None = None  # None: one per app (`chatgpt`, `claude`, ...)
    all_branches: bool = False
    dry_run: bool = False


class ChatImportService:
    """Reads exports and stores their conversations through the memory service."""

    def __init__(
        self, memory: MemoryService, db: Database, max_file_bytes: int, max_content_bytes: int
    ) -> None:
        self._memory = memory
        self._db = db
        self._max_file_bytes = max_file_bytes
        self._max_content_bytes = max_content_bytes

    def import_path(
        self,
        path: Path,
        options: ChatImportOptions,
        progress: Callable[[ImportProgress], None] | None = None,
        call: Call | None = None,
    ) -> ChatImportReport:
        """Import the export at `path` (a zip, a folder or a file)."""
        with export_files(path, self._max_file_bytes) as files:
            return self.import_files(files, options, progress, call, str(path))

    def import_files(
        self,
        files: list[ExportFile],
        options: ChatImportOptions,
        progress: Callable[[ImportProgress], None] | None = None,
        call: Call | None = None,
        source: str = "the export",
        field: str = "path",
    ) -> ChatImportReport:
        """Import `files` (given as `field`, named in errors); InvalidInputError if none of
        them is a chat export."""
        _check(options)
        run = ImportRun(self, options, progress, call or (lambda work: work()), files)
        for file in files:
            run.read_file(file)
        run.flush()
        if not run.formats:
            raise _not_an_export(source, field, run.message_lists, options.format, run.other_apps)
        return run.report()

    def known_ids(self, namespace: str) -> set[str]:
        """The message ids of the conversations stored in `namespace`."""
        with self._db.locked() as conn:
            return set(conversations.message_ids(conn, namespace))

    def store(self, drafts: list[MemoryDraft]) -> list[str]:
        """Embed and store a batch of messages."""
        return self._memory.remember_all(drafts)

    def fitted(self, speaker: str, text: str) -> list[str]:
        """`text` in pieces that fit a memory once `speaker: ` is put before them."""
        room = self._max_content_bytes - len(speaker.encode()) - 2
        return parts(clean(text), room)


@dataclass
class ImportRun:
    """One import under way: what it has read, stored and counted."""

    service: ChatImportService
    options: ChatImportOptions
    progress: Callable[[ImportProgress], None] | None
    call: Call
    files: list[ExportFile]
    started: float = field(default_factory=time.monotonic)
    tally: Tally = field(default_factory=Tally)
    formats: dict[str, int] = field(default_factory=dict)
    known: dict[str, set[str]] = field(default_factory=dict)
    pending: list[MemoryDraft] = field(default_factory=list)
    listed: list[ImportedConversation] = field(default_factory=list)
    skipped: list[SkippedPart] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    message_lists: int = 0
    other_apps: set[str] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=dict)
    times: list[str] = field(default_factory=list)
    bytes_before: int = 0
    stored: int = 0

    def read_file(self, file: ExportFile) -> None:
        """Read one file of the export; a file that cannot be read is reported, not fatal."""
        try:
            records = open_records(file, self.tally)
            with records.reader:  # a folder of logs may hold thousands of files
                self._read_records(file, records)
        except UnreadableError as exc:
            self.skipped.append(SkippedPart(where=file.name, reason=str(exc)))
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            self.skipped.append(SkippedPart(where=file.name, reason=f"cannot be read: {exc}"))
        self.bytes_before += file.size

    def _read_records(self, file: ExportFile, records: Records) -> None:
        found = format_of(records)
        chosen = self._format(file, records, found)
        if chosen is None:
            return
        self.formats[chosen] = self.formats.get(chosen, 0) + 1
        read = 0
        for item in READERS[chosen](records.items, self.tally, self.options.all_branches):
            self._take(item, file, records)
            read += 1
        if found is None and not read:  # named, but nothing of that app was in it
            self.formats[chosen] -= 1
            self.formats = {name: count for name, count in self.formats.items() if count}
            self.ignored.append(file.name)

    def _format(self, file: ExportFile, records: Records, found: str | None) -> str | None:
        """The file's format: the one it shows; with a format named, that one unless the
        file plainly is another app's, and in a folder or a zip only for files named as that
        app names them (a named format makes no settings file a conversation)."""
        wanted = self.options.format
        if wanted is not None and found is not None and found != wanted:
            self.other_apps.add(found)
            self.tally.notice(
                f"{file.name} is a {APPS[found].name} file, not {APPS[wanted].name}: skipped"
            )
            return None
        named = wanted is not None and (len(self.files) == 1 or APPS[wanted].names_file(file.name))
        if found is None and not named:
            self.message_lists += looks_like_messages(records)
            self.ignored.append(file.name)
            return None
        return wanted or found

    def _take(self, item: Conversation | Skipped, file: ExportFile, records: Records) -> None:
        if isinstance(item, Skipped):
            where = item.where if item.where.startswith(file.name) else f"{file.name}: {item.where}"
            self.skipped.append(SkippedPart(where=where, reason=item.reason))
            return
        if not item.turns:
            self.tally.leave_out("empty conversations")
            return
        messages = self._messages(item)
        if not messages:
            where = f"{file.name}: {item.title or item.app_id}"
            self.skipped.append(SkippedPart(where=where, reason="no message has a time"))
            return
        self._queue(item, messages)
        self._report_progress(records.stream.done)

    def _messages(self, conversation: Conversation) -> list[ChatMessage]:
        """The conversation's messages, each with a time (a message without one takes the
        one before it, else the conversation's), long ones in parts."""
        fallback = conversation.created or conversation.updated
        session = None if conversation.branch == 1 else f"branch-{conversation.branch}"
        messages: list[ChatMessage] = []
        for turn in conversation.turns:
            moment = turn.time or fallback
            if moment is None:
                return []
            fallback = moment
            speaker = SPEAKERS.get(turn.role, conversation.app.speaker)
            for number, text in enumerate(self.service.fitted(speaker, turn.text), start=1):
                message_id = turn.message_id if number == 1 else f"{turn.message_id}#{number}"
                stamp = format_time(moment)
                messages.append(ChatMessage(speaker, text, stamp, session, message_id[:128]))
        return messages

    def _queue(self, conversation: Conversation, messages: list[ChatMessage]) -> None:
        namespace = self.options.namespace or conversation.app.format
        if namespace not in self.known:
            self.known[namespace] = self.service.known_ids(namespace)
        known = self.known[namespace]
        fresh = [m for m in messages if m.message_id not in known]
        known.update(m.message_id for m in fresh if m.message_id is not None)
        key = conversation_key(conversation)
        self._count(conversation, messages, fresh, namespace, key)
        if self.options.dry_run or not fresh:
            return
        extra = _metadata(conversation)
        self.pending += [draft(m, namespace, key, extra) for m in fresh]
        if len(self.pending) >= BATCH:
            self.flush()

    def _count(
        self,
        conversation: Conversation,
        messages: list[ChatMessage],
        fresh: list[ChatMessage],
        namespace: str,
        key: str,
    ) -> None:
        status = "new" if len(fresh) == len(messages) else "continued" if fresh else "unchanged"
        self._add(status, 1)
        self._add("messages", len(messages))
        self._add("fresh", len(fresh))
        if fresh:  # the span of what is (would be) stored
            self.times += [min(m.timestamp for m in fresh), max(m.timestamp for m in fresh)]
            self.times = [min(self.times), max(self.times)]
        if len(self.listed) < LISTED:
            self.listed.append(
                ImportedConversation(
                    app=conversation.app.format,
                    app_id=conversation.app_id,
                    conversation_id=key,
                    title=conversation.title,
                    opening=_opening(conversation),
                    branch=conversation.branch,
                    namespace=namespace,
                    messages=len(messages),
                    new=len(fresh),
                    first=messages[0].timestamp,
                    last=messages[-1].timestamp,
                )
            )

    def _add(self, key: str, count: int) -> None:
        self.counts[key] = self.counts.get(key, 0) + count

    def flush(self) -> None:
        """Store the messages waiting, in one call."""
        batch, self.pending = self.pending, []
        if batch:
            self.stored += len(self.call(lambda: self.service.store(batch)))
            self._report_progress(None)

    def _report_progress(self, file_done: int | None) -> None:
        if self.progress is None:
            return
        total = sum(file.size for file in self.files)
        done = total if file_done is None else self.bytes_before + file_done
        stored = self.counts.get("fresh", 0) if self.options.dry_run else self.stored
        conversations = sum(self.counts.get(k, 0) for k in ("new", "continued", "unchanged"))
        self.progress(ImportProgress(min(done, total), total, conversations, stored))

    def report(self) -> ChatImportReport:
        """What the import did."""
        counts = self.counts
        return ChatImportReport(
            dry_run=self.options.dry_run,
            formats=self.formats,
            namespaces=sorted(self.known),
            conversations=sum(counts.get(k, 0) for k in ("new", "continued", "unchanged")),
            conversations_new=counts.get("new", 0),
            conversations_continued=counts.get("continued", 0),
            conversations_unchanged=counts.get("unchanged", 0),
            messages=counts.get("messages", 0),
            stored=counts.get("fresh", 0) if self.options.dry_run else self.stored,
            already_stored=counts.get("messages", 0) - counts.get("fresh", 0),
            first=self.times[0] if self.times else None,
            last=self.times[-1] if self.times else None,
            left_out=dict(self.tally.left_out.most_common()),
            skipped=self.skipped,
            notices=self.tally.notices,
            ignored_files=self.ignored,
            listed=self.listed,
            seconds=round(time.monotonic() - self.started, 3),
        )


def conversation_key(conversation: Conversation) -> str:
    """The conversation's id in loci: `app:id` (characters a conversation id may not hold
    become `-`)."""
    app_id = "".join(c if c in ID_CHARACTERS else "-" for c in conversation.app_id)
    return f"{conversation.app.format}:{app_id}"[:KEY_CHARS]


def _opening(conversation: Conversation) -> str:
    """The first words the person said (what a conversation without a title is shown by)."""
    said = next((t.text for t in conversation.turns if t.role == "user"), "")
    words = " ".join(said.split())
    return words if len(words) <= OPENING_CHARS else words[: OPENING_CHARS - 3] + "..."


def _metadata(conversation: Conversation) -> dict[str, str | int]:
    extra: dict[str, str | int] = {"app": conversation.app.format}
    if conversation.title:
        extra["title"] = conversation.title[:TITLE_CHARS]
    if conversation.project:
        extra["project"] = conversation.project[:PROJECT_CHARS]
    return extra


def _check(options: ChatImportOptions) -> None:
    if options.format is not None and options.format not in APPS:
        raise InvalidInputError(
            f"format must be one of {', '.join(APPS)}, got {fields.shown(options.format)}",
            field="format",
        )
    if options.namespace is not None:
        fields.namespace(options.namespace)


def _not_an_export(
    source: str, field: str, message_lists: int, wanted: str | None, other_apps: set[str]
) -> InvalidInputError:
    names = ", ".join(app.name for app in APPS.values())
    if wanted is not None and other_apps:
        found = ", ".join(APPS[name].name for name in sorted(other_apps))
        return InvalidInputError(
            f"{source} holds no {APPS[wanted].name} export but one of {found}: name that "
            "format, or leave --format out",
            field="format",
        )
    hint = (
        " It looks like a plain list of messages: import it with `loci import-chat` or the "
        "remember_conversation tool."
        if message_lists
        else ""
    )
    return InvalidInputError(
        f"{source} holds no chat export loci reads ({names}).{hint}", field=field
    )

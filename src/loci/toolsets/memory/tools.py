"""The `memory` toolset: one short function per tool, each validating and calling a service."""

from typing import TYPE_CHECKING, Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema

from loci.errors import InvalidInputError
from loci.faces.mcp.arguments import ADDITIVE, DESTRUCTIVE, READ_ONLY, Offset
from loci.faces.mcp.errors import invalid_arguments
from loci.faces.mcp.idempotency import IdempotencyKey, keyed
from loci.faces.mcp.provider import AppProvider, progress_reporter
from loci.faces.mcp.strict import byte_limited_text
from loci.settings import Settings
from loci.toolsets.memory.models import (
    ExportResult,
    ForgetBatchResult,
    ForgetResult,
    ImportResult,
    MemoryDraft,
    NamespacesResult,
    NearbyResult,
    RecallResult,
    RememberBatchFactResult,
    RememberFactResult,
    SequenceDraft,
    StatsResult,
)
from loci.toolsets.memory.resources import register_resources

if TYPE_CHECKING:
    from loci.app import App

UUID = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
NAMESPACE = r"^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}$"

MemoryId = Annotated[str, Field(pattern=UUID, max_length=36, description="A memory id (UUID).")]
Namespace = Annotated[str, Field(pattern=NAMESPACE, max_length=128, description="Namespace name.")]
Tag = Annotated[str, Field(min_length=1, max_length=64)]
Tags = Annotated[list[Tag], Field(max_length=64, description="Tags for filtering.")]
Importance = Annotated[float, Field(ge=0.0, le=1.0, description="Importance 0-1 (default 0.5).")]
Metadata = Annotated[dict[str, Any], Field(description="Arbitrary JSON metadata.")]
Filters = Annotated[
    dict[str, Any] | None,
    Field(
        description='Conditions applied before ranking, e.g. {"tags": {"contains": "x"}, '
        '"importance": {"gte": 0.5}, "metadata.project": "alpha"} or '
        '{"operator": "or", "filters": [{"field": "source", "operator": "eq", "value": "manual"}]}. '
        "Operators: eq ne gt gte lt lte in nin contains. Fields: namespace, tags, importance, "
        "source, content, created_at, updated_at, last_accessed, access_count, metadata.<key>."
    ),
]

OccurredAt = Annotated[
    str,
    Field(
        max_length=64,
        description="When it happened (ISO 8601 date or date-time), if not now. Questions "
        "that name a period favour memories from it.",
    ),
]

ValidFrom = Annotated[
    str,
    Field(
        max_length=64,
        description="When it became true in the world (ISO 8601 date or date-time); default: "
        "when it happened (occurred_at), else now.",
    ),
]
ValidUntil = Annotated[
    str,
    Field(
        max_length=64,
        description="When it stopped being true (ISO 8601), if it already has.",
    ),
]
OnConflict = Annotated[
    Literal["flag", "supersede", "keep"],
    Field(
        description="What to do with current memories of the namespace it likely contradicts "
        "(listed in `conflicts`): flag both as disputed (the newer ranks first for questions "
        "about now), supersede them by this one, or keep them unmarked."
    ),
]


class SequenceArg(BaseModel):
    """Where a memory goes in an ordered group of memories (a session, a story, a log)."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[
        str,
        Field(min_length=1, max_length=128, description="The sequence; made at first use."),
    ]
    kind: Literal["conversation", "story", "log"] = "log"
    position: Annotated[
        float | None,
        Field(description="Order within the sequence; default: after its last memory."),
    ] = None
    actor: Annotated[
        str | None, Field(min_length=1, max_length=128, description="Who said or did it.")
    ] = None

    def draft(self) -> SequenceDraft:
        """As the service takes it."""
        return SequenceDraft(self.name, self.kind, self.position, self.actor)


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the memory tools and resources to `server`, bounded by `settings`."""
    content_field = byte_limited_text(settings.max_content_bytes)
    # Type aliases built from the settings, hence capitalised locals.
    Content = Annotated[str, content_field, Field(description="The text to remember.")]  # noqa: N806
    Query = Annotated[  # noqa: N806
        str, content_field, Field(description="What to look for, in natural language.")
    ]
    Limit = Annotated[  # noqa: N806
        int, Field(ge=1, le=settings.max_recall_limit, description="Most results.")
    ]

    class BatchItem(BaseModel):
        """One memory of a batch."""

        model_config = ConfigDict(extra="forbid")
        content: Content
        namespace: Namespace | None = None
        tags: Tags = []
        importance: Importance = 0.5
        metadata: Metadata = {}
        occurred_at: OccurredAt | None = None
        sequence: SequenceArg | None = None
        valid_from: ValidFrom | None = None
        valid_until: ValidUntil | None = None

    def remember(
        content: Content,
        namespace: Namespace | None = None,
        tags: Tags | None = None,
        importance: Importance = 0.5,
        metadata: Metadata | None = None,
        occurred_at: OccurredAt | None = None,
        sequence: SequenceArg | None = None,
        valid_from: ValidFrom | None = None,
        valid_until: ValidUntil | None = None,
        on_conflict: OnConflict = "flag",
        idempotency_key: IdempotencyKey | None = None,
    ) -> RememberFactResult:
        """Store one self-contained fact, preference, decision or event for later recall.

        Returns the new memory's id, and the current memories of its namespace it likely
        contradicts (`conflicts`: the same subject and kind of fact with another value),
        handled as `on_conflict` says. Use a namespace per project or topic (default
        "default"). With `sequence`, the memory is the next item (or the one at `position`)
        of an ordered group, such as a meeting log: recall then also weighs the items around
        a match.
        """
        draft = MemoryDraft(
            content,
            namespace,
            tags or [],
            importance,
            metadata or {},
            occurred_at=occurred_at,
            sequence=None if sequence is None else sequence.draft(),
            valid_from=valid_from,
            valid_until=valid_until,
        )
        return keyed(
            provider,
            "remember",
            idempotency_key,
            {"draft": draft, "on_conflict": on_conflict},
            RememberFactResult,
            lambda app: app.facts.remember(draft, on_conflict),
        )

    def remember_batch(
        memories: Annotated[
            list[Annotated[Any, WithJsonSchema(inlined_schema(BatchItem))]],
            Field(min_length=1, max_length=settings.max_batch_size),
        ],
        namespace: Namespace | None = None,
        on_conflict: OnConflict = "flag",
        idempotency_key: IdempotencyKey | None = None,
    ) -> RememberBatchFactResult:
        """Store several memories in one call (faster than many `remember` calls).

        `namespace` applies to items that do not name their own. Invalid items are listed in
        `errors` (by index) and not stored; the others are stored together. Each item is
        checked against the memories stored before it, as `remember` does (`conflicts`).
        """
        drafts = [batch_draft(BatchItem, item, namespace) for item in memories]
        return keyed(
            provider,
            "remember_batch",
            idempotency_key,
            {"memories": memories, "namespace": namespace, "on_conflict": on_conflict},
            RememberBatchFactResult,
            lambda app: app.facts.remember_batch(drafts, on_conflict),
        )

    def recall(
        query: Query,
        limit: Limit = 5,
        namespace: Namespace | None = None,
        filters: Filters = None,
        min_similarity: Annotated[float, Field(ge=0.0, le=1.0)] = 0.0,
        hybrid_alpha: Annotated[float | None, Field(ge=0.0, le=1.0)] = None,
        explain: Annotated[
            bool, Field(description="Report each hit's ranking signals and their weights.")
        ] = False,
        as_of: Annotated[
            str | None,
            Field(
                max_length=64,
                description="Answer with what was true then (ISO 8601 date or date-time).",
            ),
        ] = None,
        include_history: Annotated[
            bool, Field(description="Keep replaced memories beside their successors.")
        ] = False,
    ) -> RecallResult:
        """Find stored memories relevant to a question or topic, best first.

        Hybrid by default: meaning (vectors) and keywords fused. `hybrid_alpha` 1.0 = meaning
        only, 0.0 = keywords only. `namespace` and `filters` restrict what is searched. A
        period named in the query ("in May 2023", "on 3 June", "last week") favours memories
        from it, a person named in it favours what they said in sequences (conversations),
        and items next to a strong match in a sequence gain. What is true now ranks first: a
        replaced or ended memory ranks below current ones (left out when its successor is
        found too); `as_of` answers with what was true at that time.
        """
        # Embedded first, outside the lock: concurrent clients' queries embed side by side.
        ahead = provider.unlocked(lambda app: app.memory.embed_query(query, namespace, filters))
        counted = provider.records_access
        return provider.call(
            lambda app: app.memory.recall(
                query,
                limit,
                namespace,
                filters,
                min_similarity,
                hybrid_alpha,
                explain,
                ahead,
                record_access=counted,
                as_of=as_of,
                include_history=include_history,
            )
        )

    def nearby(
        memory_id: MemoryId,
        limit: Limit = 5,
        exclude_self: bool = True,
        namespace: Namespace | None = None,
    ) -> NearbyResult:
        """The memories closest in meaning to a given memory (only those of `namespace`, which
        the given memory must be in, when one is named)."""
        return provider.call(
            lambda app: app.memory.nearby(memory_id, limit, exclude_self, namespace)
        )

    def forget(
        memory_id: MemoryId | None = None,
        filters: Filters = None,
        namespace: Namespace | None = None,
        dry_run: bool = False,
    ) -> ForgetResult:
        """Delete a memory by id, or every memory matching `filters` and/or `namespace`.

        Permanent. With `dry_run` nothing is deleted and the result lists what would be.
        """
        return provider.call(lambda app: app.memory.forget(memory_id, filters, namespace, dry_run))

    def forget_batch(
        memory_ids: Annotated[
            list[MemoryId], Field(min_length=1, max_length=settings.max_batch_size)
        ],
    ) -> ForgetBatchResult:
        """Delete several memories by id; ids that do not exist are listed in `not_found`."""
        return provider.call(lambda app: app.memory.forget_batch(memory_ids))

    def stats(namespace: Namespace | None = None) -> StatsResult:
        """Counts, namespaces, dates, tags and the embedding model of the memory store."""
        return provider.call(lambda app: app.catalog.stats(namespace))

    def namespaces(
        action: Literal["list", "create", "delete", "rename"] = "list",
        name: Namespace | None = None,
        new_name: Namespace | None = None,
    ) -> NamespacesResult:
        """List namespaces with counts; create one; rename one (`new_name`); or delete one with
        all its memories (permanent)."""
        return provider.call(lambda app: app.catalog.namespaces(action, name, new_name))

    def export_memories(
        namespace: Namespace | None = None,
        include_vectors: bool = False,
        offset: Offset = 0,
        limit: Annotated[int, Field(ge=1, le=10_000)] = 1000,
    ) -> ExportResult:
        """Export memories as JSON that `import_memories` accepts; page with offset/limit
        (`next_offset` is null at the end)."""
        return provider.call(
            lambda app: app.transfer.export(namespace, include_vectors, offset, limit)
        )

    def import_memories(
        data: Annotated[
            dict[str, Any], Field(description="An export_memories result or its `export`.")
        ],
        ctx: Context,
        namespace_override: Namespace | None = None,
        skip_duplicates: bool = True,
        recompute_vectors: bool = True,
    ) -> ImportResult:
        """Import memories exported by loci, keeping ids, dates and fields. Duplicates (the
        same text, or the same id, in the namespace a memory goes to) are skipped unless
        `skip_duplicates` is false; a memory whose id is taken elsewhere gets a new id."""
        from loci.toolsets.memory.transfer import ImportOptions

        options = ImportOptions(namespace_override, skip_duplicates, recompute_vectors)

        progress = progress_reporter(ctx, "importing memories")
        return provider.call(lambda app: app.transfer.import_data(data, options, progress))

    tools = [
        (remember, "Remember", ADDITIVE),
        (remember_batch, "Remember many", ADDITIVE),
        (recall, "Recall", READ_ONLY),
        (nearby, "Nearby memories", READ_ONLY),
        (forget, "Forget", DESTRUCTIVE),
        (forget_batch, "Forget many", DESTRUCTIVE),
        (stats, "Memory statistics", READ_ONLY),
        (
            namespaces,
            "Namespaces",
            ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False),
        ),
        (export_memories, "Export memories", READ_ONLY),
        (import_memories, "Import memories", ADDITIVE),
    ]
    for fn, title, annotations in tools:
        server.add_tool(fn, title=title, annotations=annotations, structured_output=True)
    register_resources(server, provider)


def inlined_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema with its `$defs` written in place: it is embedded in another
    schema, where references to its own definitions would not resolve."""
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str) and reference.startswith("#/$defs/"):
                return inline(definitions[reference.removeprefix("#/$defs/")])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(item) for item in node]
        return node

    inlined: dict[str, Any] = inline(schema)
    return inlined


def batch_draft(
    model: type[BaseModel], item: Any, namespace: str | None
) -> MemoryDraft | InvalidInputError:
    """One item of a batch as a draft, or the error that keeps it out of the batch."""
    try:
        checked = model.model_validate(item, strict=True)
    except ValidationError as exc:
        return invalid_arguments("this item", exc)
    fields = checked.model_dump()
    sequence = getattr(checked, "sequence", None)
    return MemoryDraft(
        fields["content"],
        fields["namespace"] or namespace,
        fields["tags"],
        fields["importance"],
        fields["metadata"],
        occurred_at=fields.get("occurred_at"),
        sequence=sequence.draft() if isinstance(sequence, SequenceArg) else None,
        valid_from=fields.get("valid_from"),
        valid_until=fields.get("valid_until"),
    )


def namespace_names(app: "App") -> list[str]:
    """The namespaces, offered where an argument is named `namespace`."""
    listed = app.catalog.namespaces("list").namespaces or []
    return [info.name for info in listed]

"""What `loci migrate` copies: the tables of the toolsets both engines run, in an order their
references allow, with their keys and the columns that hold vectors.

Derived data is not copied: the change log, the keyword indexes and the sequences' keyword
documents are rebuilt by the target's own triggers and hooks as the rows arrive.
"""

from __future__ import annotations

from typing import NamedTuple


class Table(NamedTuple):
    """A table as it is copied: its key (rows are copied in its order) and columns."""

    name: str
    key: tuple[str, ...]
    columns: tuple[str, ...]
    vectors: tuple[str, ...] = ()  # columns holding float32 vectors
    #: A single integer key, copied from the target's highest on (so a resumed copy skips
    #: what is there), and whose identity the target continues after.
    counted: bool = False
    #: Columns the target is given a fixed SQL value in (not copied, not compared).
    fixed: tuple[tuple[str, str], ...] = ()


TABLES = (
    Table("meta", ("key",), ("key", "value")),
    Table("namespaces", ("name",), ("name", "created_at")),
    Table(
        "memories",
        ("seq",),
        (
            "seq",
            "id",
            "namespace",
            "content",
            "content_hash",
            "tags",
            "importance",
            "source",
            "metadata",
            "created_at",
            "updated_at",
            "last_accessed",
            "access_count",
            "occurred_at",
            "decayed_at",
        ),
        counted=True,
    ),
    Table("memory_vectors", ("seq",), ("seq", "embedding"), ("embedding",), counted=True),
    Table("memory_tags", ("tag", "memory_seq"), ("tag", "memory_seq")),
    # Not stale: a stale sequence without items yet would be dropped at the batch's commit;
    # its items, arriving later, mark it stale and its keyword document is built then.
    Table(
        "sequences",
        ("id",),
        ("id", "namespace", "name", "kind"),
        counted=True,
        fixed=(("stale", "0"),),
    ),
    Table("sequence_items", ("seq",), ("seq", "sequence", "position", "actor"), counted=True),
    Table("passages", ("id",), ("id", "seq", "start", "end", "embedding"), ("embedding",), True),
    Table("memory_aliases", ("id",), ("id", "seq")),
    Table("memory_validity", ("seq",), ("seq", "valid_from", "valid_until", "superseded_by")),
    Table(
        "memory_conflicts",
        ("older", "newer"),
        ("older", "newer", "reason", "state", "noted_at"),
    ),
    Table(
        "write_receipts",
        ("key",),
        ("key", "tool", "fingerprint", "claimant", "result", "created_at"),
    ),
    Table(
        "access_tokens",
        ("name",),
        ("name", "digest", "toolsets", "read_only", "namespaces", "created_at"),
    ),
    Table("revoked_tokens", ("digest",), ("digest", "name", "revoked_at")),
    Table("context_projects", ("id",), ("id", "name", "path", "created_at")),
    Table(
        "context_versions",
        ("project_id", "file_type", "version"),
        (
            "project_id",
            "file_type",
            "version",
            "content",
            "content_hash",
            "saved_at",
            "forced",
            "issues",
        ),
    ),
    Table(
        "context_attempts",
        ("project_id", "file_type"),
        ("project_id", "file_type", "failures", "best_attempt", "best_confidence"),
    ),
    Table(
        "checkpoint_sessions",
        ("id",),
        ("id", "workflow_id", "created_at", "last_saved_at", "pins"),
    ),
    Table(
        "story_sessions",
        ("id",),
        (
            "id",
            "name",
            "created_at",
            "updated_at",
            "settings",
            "stream_chars",
            "stream_tokens",
            "window_start",
            "window_tokens",
            "interactions",
            "corrections_made",
        ),
        counted=True,
    ),
    Table(
        "story_pieces",
        ("id",),
        ("id", "session", "interaction", "role", "start", "token_start", "content"),
        counted=True,
    ),
    Table(
        "story_chunks",
        ("id",),
        ("id", "session", "relief", "start", "end", "tokens", "content", "archived_at"),
        counted=True,
    ),
    Table(
        "story_reliefs",
        ("id",),
        (
            "id",
            "session",
            "at",
            "interaction",
            "tokens_before",
            "tokens_after",
            "chunks",
            "seconds",
        ),
        counted=True,
    ),
    Table(
        "story_passages",
        ("id",),
        ("id", "session", "start", "end", "token_pos", "entities", "embedding", "prompt"),
        counted=True,
    ),
    Table(
        "story_threads",
        ("id",),
        (
            "id",
            "session",
            "name",
            "status",
            "source",
            "description",
            "entities",
            "events",
            "opened_pos",
            "updated_pos",
        ),
        counted=True,
    ),
    Table(
        "story_names",
        ("id",),
        (
            "id",
            "session",
            "key",
            "written",
            "mentions",
            "ner_person",
            "ner_place",
            "ner_other",
            "said",
            "acts",
            "place_word",
            "article",
            "male",
            "female",
            "addressed",
            "named",
            "first_pos",
            "first_seen",
            "recent_seen",
            "person",
            "kind",
        ),
        counted=True,
    ),
    Table(
        "story_meetings",
        ("a", "b"),
        ("session", "a", "b", "paragraph", "sentence", "apposition", "stated", "parted"),
    ),
    Table("story_words", ("session", "word"), ("session", "word", "lower", "inside")),
    Table(
        "story_corrections",
        ("id",),
        (
            *("id", "session", "action", "name", "other", "interaction", "at"),
            *("created", "kept", "number", "along", "made_by"),
        ),
        counted=True,
    ),
    Table(
        "checkpoints",
        ("id",),
        (
            "id",
            "session_id",
            "seq",
            "created_at",
            "context_hash",
            "size_bytes",
            "stored_bytes",
            "blob",
            "encrypted",
            "key_id",
            "critical",
            "metadata",
            "report",
            "base_id",
            "depth",
            "stored_hash",
        ),
    ),
)

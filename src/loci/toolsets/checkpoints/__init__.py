"""The checkpoints toolset: workflow checkpoints, classified, compressed, optionally
encrypted, within quotas."""

from loci.toolsets.toolset import Toolset

TOOLSET = Toolset(
    name="checkpoints",
    summary="workflow checkpoints: classified, compressed, optionally encrypted, with quotas",
    build="loci.toolsets.checkpoints.wiring:build",
    schema="loci.toolsets.checkpoints.schema:CHECKPOINT_SCHEMA",
    mcp=("loci.toolsets.checkpoints.prompts", "loci.toolsets.checkpoints.tools"),
    commands=("loci.toolsets.checkpoints.commands",),
    doctor="loci.toolsets.checkpoints.commands:doctor",
    completions=(("session_id", "loci.toolsets.checkpoints.tools:session_ids"),),
    pages=("loci.toolsets.checkpoints.pages",),
    orphans="loci.toolsets.checkpoints.orphans:orphaned_files",
)

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["TOOLSET", "anatomy", "blob_table", "blobs", "maintenance", "models", "parts", "service"]

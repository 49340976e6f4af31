"""The context toolset: per-project context files checked against templates, with
correction guidance when a document does not fit."""

from loci.toolsets.toolset import Toolset

TOOLSET = Toolset(
    name="context",
    summary="project context files validated against templates, with correction guidance",
    build="loci.toolsets.context.wiring:build",
    schema="loci.toolsets.context.schema:CONTEXT_SCHEMA",
    mcp=("loci.toolsets.context.prompts", "loci.toolsets.context.tools"),
    commands=("loci.toolsets.context.commands",),
    doctor="loci.toolsets.context.commands:doctor",
    completions=(
        ("project_id", "loci.toolsets.context.tools:project_ids"),
        ("file_type", "loci.toolsets.context.tools:template_names"),
        ("template", "loci.toolsets.context.tools:template_names"),
    ),
    pages=("loci.toolsets.context.pages",),
    orphans="loci.toolsets.context.orphans:orphaned_files",
)

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["TOOLSET", "guidance", "library", "models", "naming", "service"]

"""What the context-file services return (also the MCP tools' output schemas)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

UpdateStatus = Literal["success", "correction_needed", "max_attempts_reached"]


class FileSummary(BaseModel):
    """The newest version of one context file of a project."""

    file_type: str
    version: int
    updated_at: str
    forced: bool = Field(description="Saved with force=true despite validation errors.")


class ProjectInfo(BaseModel):
    """A registered project and its context files."""

    project_id: str = Field(description="Stable id derived from the project's absolute path.")
    name: str
    path: str = Field(description="The project's absolute path.")
    folder: str = Field(description="Where loci keeps the project's context files.")
    created_at: str
    updated_at: str | None = Field(description="When any of its files was last saved.")
    files: list[FileSummary]


class ProjectList(BaseModel):
    """Every registered project."""

    projects: list[ProjectInfo]
    total: int


class SectionInfo(BaseModel):
    """What a template expects of one section."""

    name: str
    required: bool
    format: str = Field(description="freeform, markdown_list, markdown_table or structured.")
    purpose: str
    min_length: int = Field(description="Least characters of text (0: no minimum).")
    columns: list[str] = Field(description="Columns a markdown_table must have.")
    keys: list[str] = Field(description="Keys a structured section must have.")
    pattern: str | None = Field(description="Regular expression the section text must match.")
    aliases: list[str] = Field(description="Other headings accepted for this section.")


class TemplateInfo(BaseModel):
    """A template: its sections, where it comes from, and a document that passes it."""

    name: str
    title: str
    description: str
    source: str = Field(description='"builtin" or the path of the user\'s template file.')
    sections: list[SectionInfo]
    example: str


class TemplateProblemInfo(BaseModel):
    """A template file that could not be loaded (the others still work)."""

    path: str
    line: int | None
    message: str


class TemplateList(BaseModel):
    """Every usable template, and the broken template files."""

    templates: list[TemplateInfo]
    problems: list[TemplateProblemInfo]


class ContextFile(BaseModel):
    """A context file's content (or the skeleton to start from) and what its template expects."""

    project_id: str
    file_type: str
    exists: bool = Field(description="False: nothing saved yet, `content` is the skeleton.")
    is_skeleton: bool
    content: str
    version: int | None
    latest_version: int | None
    updated_at: str | None
    forced: bool
    path: str = Field(description="The Markdown file a person can open.")
    edited_outside: bool = Field(
        description="The file on disk differs from the newest saved version (edited by hand)."
    )
    template: TemplateInfo


class ValidationIssue(BaseModel):
    """One thing wrong with a document."""

    type: str
    section: str | None
    message: str
    severity: Literal["error", "warning"]
    line: int | None


class CorrectionGuidance(BaseModel):
    """How to fix a document, step by step."""

    primary_issue: str
    step_by_step_fix: list[str]
    template_to_follow: str
    example_fix: str = Field(description="Your own sections, corrected as far as rules allow.")
    retry_instructions: str


class BestAttempt(BaseModel):
    """The failed attempt that came closest, since the last save."""

    attempt: int
    confidence: float


class UpdateResult(BaseModel):
    """The outcome of update_context."""

    status: UpdateStatus
    message: str
    project_id: str
    file_type: str
    version: int | None = Field(description="The version saved (success only).")
    path: str | None = Field(description="The saved Markdown file (success only).")
    forced: bool
    attempt: int = Field(description="Failed attempts since the last save, this one included.")
    max_attempts: int
    confidence: float = Field(description="0-1: how close the document is to its template.")
    validation_errors: list[ValidationIssue]
    correction_guidance: CorrectionGuidance | None
    best_attempt: BestAttempt | None
    indexed_memories: int = Field(description="Memories the saved file was indexed as.")


class CheckResult(BaseModel):
    """A document checked against a template, without saving it."""

    file_type: str
    valid: bool
    confidence: float
    validation_errors: list[ValidationIssue]
    correction_guidance: CorrectionGuidance | None


class VersionInfo(BaseModel):
    """One saved version of a context file."""

    version: int
    saved_at: str
    size_bytes: int
    content_hash: str
    forced: bool


class ContextHistory(BaseModel):
    """A context file's saved versions, newest first."""

    project_id: str
    file_type: str
    versions: list[VersionInfo]
    total: int

"""A saved context file as memories, so that `recall` finds what a project's files say.

Each section becomes one or more memories of at most about `CHUNK_CHARS` characters, cut at
block boundaries (the embedding model reads only the first 256 tokens of a text), each prefixed
with the file's and the section's titles so that it makes sense on its own.
"""

from __future__ import annotations

from loci.toolsets.context.markdown import Document, Section
from loci.toolsets.context.naming import PROJECT_NAMESPACE_PREFIX
from loci.toolsets.context.templates import Template
from loci.toolsets.memory.models import MemoryDraft

CHUNK_CHARS = 900
SOURCE = "context"
IMPORTANCE = 0.7


def namespace_of(project_id: str) -> str:
    """The memory namespace a project's context files are indexed in."""
    return f"{PROJECT_NAMESPACE_PREFIX}{project_id}"


def drafts_for(
    document: Document, template: Template, project_id: str, file_type: str
) -> list[MemoryDraft]:
    """The memories that index `document`."""
    drafts: list[MemoryDraft] = []
    for section in document.sections:
        for text in _chunks(section):
            drafts.append(
                MemoryDraft(
                    content=f"{template.title} / {section.title}: {text}",
                    namespace=namespace_of(project_id),
                    tags=["context", file_type],
                    importance=IMPORTANCE,
                    source=SOURCE,
                    metadata={
                        "project_id": project_id,
                        "file_type": file_type,
                        "section": section.title,
                        "line": section.line,
                    },
                )
            )
    return drafts


def _chunks(section: Section) -> list[str]:
    chunks: list[str] = []
    current = ""
    for block in section.blocks:
        if block.kind == "html" or not block.text.strip():
            continue
        if block.kind == "table":  # a row reads as "Column: value; Column: value"
            pieces = [_row(block.columns, row) for row in block.rows]
        else:
            pieces = block.items or [block.text]
        for piece in pieces:
            text = " ".join(piece.split())
            if current and len(current) + len(text) + 1 > CHUNK_CHARS:
                chunks.append(current)
                current = ""
            current = f"{current} {text}".strip()
    if current:
        chunks.append(current)
    return chunks


def _row(columns: list[str], cells: list[str]) -> str:
    # Rows may have fewer cells than the header has columns.
    return "; ".join(f"{c}: {v}" for c, v in zip(columns, cells, strict=False) if v)

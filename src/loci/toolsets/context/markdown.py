"""A Markdown document as sections of blocks, parsed with markdown-it-py (CommonMark + tables).

Headings of level 1 and 2 open sections; deeper headings are blocks inside the section above
them. Each block keeps its kind, its line numbers and its plain text, so validation can check
formats and lengths and guidance can quote the author's own lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token

from loci.toolsets.context.naming import section_key

BlockKind = Literal["paragraph", "list", "table", "code", "html", "quote", "heading"]

#: Blocks whose text is the author's prose (code and HTML comments are not checked or counted).
TEXT_KINDS: frozenset[str] = frozenset({"paragraph", "list", "table", "quote", "heading"})


@dataclass
class Block:
    """One top-level block of a section."""

    kind: BlockKind
    line: int  # 1-based first line
    end_line: int  # 1-based last line
    text: str = ""
    items: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class Section:
    """A heading of level 1 or 2 and the blocks up to the next one."""

    title: str
    level: int
    line: int
    blocks: list[Block] = field(default_factory=list)

    @property
    def key(self) -> str:
        """The normalised title sections are matched on."""
        return section_key(self.title)

    @property
    def end_line(self) -> int:
        """The last line that belongs to this section."""
        return self.blocks[-1].end_line if self.blocks else self.line

    def text(self) -> str:
        """The section's prose as plain text (no code, no HTML)."""
        return "\n".join(b.text for b in self.blocks if b.kind in TEXT_KINDS)

    def text_length(self) -> int:
        """Characters of prose, spaces collapsed."""
        return len(" ".join(self.text().split()))

    def kinds(self) -> set[str]:
        """The kinds of block the section holds."""
        return {block.kind for block in self.blocks}


@dataclass
class Document:
    """A parsed Markdown document."""

    lines: list[str]
    preamble: list[Block]
    sections: list[Section]

    def source(self, section: Section) -> str:
        """The Markdown source of a section, heading included."""
        return "\n".join(self.lines[section.line - 1 : section.end_line]).rstrip()

    def body(self, section: Section) -> str:
        """The Markdown source of a section without its heading."""
        return "\n".join(self.lines[section.line : section.end_line]).strip("\n")


@cache
def _parser() -> MarkdownIt:
    # Built once per process, on first use (nothing happens at import time).
    return MarkdownIt("commonmark").enable("table")


def parse(text: str) -> Document:
    """Parse Markdown into sections of blocks."""
    tokens = _parser().parse(text)
    preamble: list[Block] = []
    sections: list[Section] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        end = _closing(tokens, index)
        if token.type == "heading_open" and int(token.tag[1]) <= 2:
            title = _plain(tokens[index + 1])
            sections.append(Section(title=title, level=int(token.tag[1]), line=_line(token)))
        else:
            block = _block(tokens, index, end)
            if block is not None:
                (sections[-1].blocks if sections else preamble).append(block)
        index = end + 1
    return Document(lines=text.splitlines(), preamble=preamble, sections=sections)


def _block(tokens: Sequence[Token], start: int, end: int) -> Block | None:
    token = tokens[start]
    first, last = _line(token), _last_line(token)
    inner = tokens[start : end + 1]
    if token.type == "heading_open":
        return Block("heading", first, last, text=_plain(tokens[start + 1]))
    if token.type == "paragraph_open":
        return Block("paragraph", first, last, text=_plain(tokens[start + 1]))
    if token.type in ("bullet_list_open", "ordered_list_open"):
        items = _list_items(inner, token.level + 1)
        return Block("list", first, last, text="\n".join(items), items=items)
    if token.type == "table_open":
        columns, rows = _table(inner)
        text = "\n".join(" ".join(row) for row in [columns, *rows])
        return Block("table", first, last, text=text, columns=columns, rows=rows)
    if token.type == "blockquote_open":
        text = "\n".join(_plain(t) for t in inner if t.type == "inline")
        return Block("quote", first, last, text=text)
    if token.type in ("fence", "code_block"):
        return Block("code", first, last, text=token.content)
    if token.type == "html_block":
        return Block("html", first, last, text=token.content)
    return None  # thematic breaks


def _list_items(tokens: Sequence[Token], item_level: int) -> list[str]:
    items: list[str] = []
    for token in tokens:
        if token.type == "list_item_open" and token.level == item_level:
            items.append("")
        elif token.type == "inline" and items:
            text = _plain(token)
            items[-1] = f"{items[-1]} {text}".strip() if items[-1] else text
    return items


def _table(tokens: Sequence[Token]) -> tuple[list[str], list[list[str]]]:
    columns: list[str] = []
    rows: list[list[str]] = []
    in_head = False
    for token in tokens:
        if token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open" and not in_head:
            rows.append([])
        elif token.type == "inline":
            (columns if in_head else rows[-1]).append(_plain(token))
    return columns, rows


def _closing(tokens: Sequence[Token], start: int) -> int:
    """Index of the token that closes the block opened at `start` (itself for leaf blocks)."""
    token = tokens[start]
    if token.nesting != 1:
        return start
    depth = 0
    for index in range(start, len(tokens)):
        depth += tokens[index].nesting
        if depth == 0:
            return index
    return len(tokens) - 1


def _plain(inline: Token) -> str:
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts).strip()


def _line(token: Token) -> int:
    return token.map[0] + 1 if token.map else 1


def _last_line(token: Token) -> int:
    return token.map[1] if token.map else _line(token)

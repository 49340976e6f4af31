"""Check a context document against its template.

Rules, in the order guidance takes them: missing and duplicated sections, empty sections, wrong
formats (a list where a table is required, a table without its columns, missing keys), sections
below their minimum length, placeholder text and template instructions left in, and patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, get_args

from loci.toolsets.context.markdown import Document, Section, parse
from loci.toolsets.context.naming import section_key
from loci.toolsets.context.templates import FORMAT_WORDS, SectionSpec, Template

IssueType = Literal[
    "missing_section",
    "duplicate_section",
    "empty_section",
    "format_error",
    "too_short",
    "placeholder",
    "pattern_mismatch",
]
#: Which problem guidance leads with: structure first, then format, then content (the order
#: of IssueType).
PRIORITY: tuple[str, ...] = get_args(IssueType)

_UPPER_MARKERS = re.compile(r"\b(TODO|TBD|FIXME|XXX)\b")
_LOOSE_MARKERS = re.compile(
    r"lorem ipsum|\bplaceholder\b|\bfill (?:this )?in\b|\[insert\b|<insert\b|<fill\b",
    re.IGNORECASE,
)
_ELLIPSIS = re.compile(r"^\s*(?:\.{3}|…)\s*$")
_KEY_VALUE = re.compile(r"^\s*(?:[-*+]\s+)?\**([^:*\n]{1,60}?)\**\s*:\**\s*(.+)$")


@dataclass(frozen=True)
class Issue:
    """One thing wrong with a document."""

    type: IssueType
    section: str | None
    message: str
    severity: Literal["error", "warning"] = "error"
    line: int | None = None
    detail: tuple[str, ...] = ()  # e.g. the missing columns, or the offending text


@dataclass
class Validation:
    """A document checked against a template."""

    template: Template
    document: Document
    issues: list[Issue] = field(default_factory=list)
    found: dict[str, list[Section]] = field(default_factory=dict)  # template key -> sections

    @property
    def valid(self) -> bool:
        """No errors (warnings are allowed)."""
        return not any(issue.severity == "error" for issue in self.issues)

    def errors_first(self) -> list[Issue]:
        """Issues ordered by how much they matter."""
        return sorted(
            self.issues,
            key=lambda i: (i.severity != "error", PRIORITY.index(i.type), i.line or 0),
        )

    def confidence(self) -> float:
        """How close the document is to passing: the mean score of the template's sections."""
        scores = []
        for spec in self.template.sections:
            if spec.key not in self.found:
                scores.append(0.0 if spec.required else 1.0)
                continue
            errors = [i for i in self.issues if i.section == spec.name and i.severity == "error"]
            scores.append(max(0.0, 1.0 - 0.35 * len(errors)))
        warnings = sum(1 for i in self.issues if i.severity == "warning")
        return round(max(0.0, sum(scores) / len(scores) - 0.02 * warnings), 3)


def validate(content: str, template: Template) -> Validation:
    """Every issue of `content` against `template` (the Markdown is parsed once)."""
    document = parse(content)
    result = Validation(template=template, document=document)
    for section in _sections(document):
        spec = template.section(section.key)
        if spec is not None:
            result.found.setdefault(spec.key, []).append(section)
    for spec in template.sections:
        sections = result.found.get(spec.key, [])
        if not sections:
            if spec.required:
                result.issues.append(_missing(spec))
            continue
        if len(sections) > 1:
            result.issues.append(_duplicate(spec, sections))
        result.issues += _check_section(document, spec, sections[0])
    return result


def _sections(document: Document) -> list[Section]:
    """The sections proper: level-1 headings are the title, unless there are no level-2 ones."""
    if any(section.level == 2 for section in document.sections):
        return [section for section in document.sections if section.level == 2]
    return document.sections


def _missing(spec: SectionSpec) -> Issue:
    return Issue(
        "missing_section",
        spec.name,
        f'the required section "{spec.name}" is missing ({spec.purpose.rstrip(".")})',
    )


def _duplicate(spec: SectionSpec, sections: list[Section]) -> Issue:
    lines = ", ".join(str(s.line) for s in sections)
    return Issue(
        "duplicate_section",
        spec.name,
        f'the section "{spec.name}" appears {len(sections)} times (lines {lines}); keep one',
        line=sections[1].line,
        detail=tuple(s.title for s in sections),
    )


def _check_section(document: Document, spec: SectionSpec, section: Section) -> list[Issue]:
    if not any(block.text.strip() for block in section.blocks if block.kind != "html"):
        return [
            Issue(
                "empty_section",
                spec.name,
                f'the section "{spec.name}" (line {section.line}) is empty',
                line=section.line,
            ),
            *_leftover_instructions(spec, section),
        ]
    issues = _format_issues(spec, section)
    placeholders = _placeholders(spec, section) + _leftover_instructions(spec, section)
    length = section.text_length()
    # Replacing a placeholder with what it stands for also fixes the length: say it once.
    if spec.min_length and length < spec.min_length and not issues and not placeholders:
        issues.append(
            Issue(
                "too_short",
                spec.name,
                f'the section "{spec.name}" has {length} characters of text; it needs at least '
                f"{spec.min_length}",
                line=section.line,
                detail=(document.body(section),),
            )
        )
    issues += placeholders
    if spec.pattern and not re.search(spec.pattern, section.text()):
        wanted = spec.pattern_hint or f"text matching {spec.pattern}"
        issues.append(
            Issue(
                "pattern_mismatch",
                spec.name,
                f'the section "{spec.name}" must contain {wanted}',
                line=section.line,
            )
        )
    return issues


def _format_issues(spec: SectionSpec, section: Section) -> list[Issue]:
    kinds = section.kinds() - {"html", "heading"}
    found = _describe(kinds)
    wanted = FORMAT_WORDS[spec.format]
    if spec.format == "markdown_list" and "list" not in kinds:
        return [_format_error(spec, section, f"should be {wanted}, but it is {found}")]
    if spec.format == "markdown_table":
        tables = [block for block in section.blocks if block.kind == "table"]
        if not tables:
            return [_format_error(spec, section, f"should be {wanted}, but it is {found}")]
        have = {section_key(column) for column in tables[0].columns}
        missing = tuple(c for c in spec.columns if section_key(c) not in have)
        if missing:
            names = ", ".join(missing)
            return [_format_error(spec, section, f"table lacks the column(s) {names}", missing)]
        if not tables[0].rows:
            return [_format_error(spec, section, "table has a header but no rows")]
    if spec.format == "structured":
        keys = {section_key(match.group(1)) for match in _key_values(section)}
        missing = tuple(k for k in spec.keys if section_key(k) not in keys)
        if missing:
            names = ", ".join(missing)
            return [_format_error(spec, section, f"lacks the key(s) {names}", missing)]
    return []


def _format_error(
    spec: SectionSpec, section: Section, problem: str, detail: tuple[str, ...] = ()
) -> Issue:
    return Issue(
        "format_error",
        spec.name,
        f'the section "{spec.name}" (line {section.line}) {problem}',
        line=section.line,
        detail=detail,
    )


def _key_values(section: Section) -> list[re.Match[str]]:
    lines = [line for block in section.blocks for line in (block.items or [block.text])]
    return [m for m in (_KEY_VALUE.match(line) for line in lines) if m is not None]


def _placeholders(spec: SectionSpec, section: Section) -> list[Issue]:
    issues: list[Issue] = []
    for block in section.blocks:
        if block.kind not in ("paragraph", "list", "table", "quote"):
            continue
        pieces = block.items or [cell for row in block.rows for cell in row] or [block.text]
        for piece in pieces:
            marker = _marker(piece)
            if marker is not None:
                issues.append(
                    Issue(
                        "placeholder",
                        spec.name,
                        f'the section "{spec.name}" still holds placeholder text ({marker!r}) '
                        f'at line {block.line}: "{clip(piece)}"',
                        line=block.line,
                        detail=(piece, marker),
                    )
                )
                break  # one per block is enough to point at it
    return issues


def _marker(text: str) -> str | None:
    for pattern in (_UPPER_MARKERS, _LOOSE_MARKERS, _ELLIPSIS):
        found = pattern.search(text)
        if found is not None:
            return found.group(0).strip()
    return None


def _leftover_instructions(spec: SectionSpec, section: Section) -> list[Issue]:
    purpose = " ".join(spec.purpose.split())
    for block in section.blocks:
        if purpose and purpose in " ".join(block.text.split()):
            return [
                Issue(
                    "placeholder",
                    spec.name,
                    f'the section "{spec.name}" still holds the template\'s instructions at line '
                    f"{block.line}; replace them with the content they ask for",
                    line=block.line,
                    detail=(purpose,),
                )
            ]
    return []


def _describe(kinds: set[str]) -> str:
    names = {
        "paragraph": "prose",
        "list": "a list",
        "table": "a table",
        "code": "a code block",
        "quote": "a quote",
    }
    found = [names[k] for k in sorted(kinds) if k in names]
    return " and ".join(found) if found else "empty"


def clip(text: str, limit: int = 80) -> str:
    """`text` on one line, cut to `limit` characters, for quoting in messages."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."

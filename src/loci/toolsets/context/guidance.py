"""Correction guidance: how to turn a document that failed validation into one that passes.

Guidance leads with the most important problem, lists a concrete step for every problem (naming
the section, the line and what is missing), shows the template fragment to follow, and builds an
example fix from the author's own text: their list turned into the table asked for, their table
with the missing columns added, their section with the placeholder line marked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from loci.sentences import split as split_sentences
from loci.toolsets.context.markdown import Document, Section
from loci.toolsets.context.naming import section_key
from loci.toolsets.context.templates import FORMAT_WORDS, SectionSpec, Template
from loci.toolsets.context.validate import Issue, Validation, clip

FILL = "<fill in>"
#: The last step of every guidance, for an agent (the CLI words it for its own commands).
RESEND = "Call update_context again with the whole corrected document."
_NAMING_COLUMNS = frozenset({"title", "name", "feature", "decision", "summary", "description"})
# An item's name and the rest: "Name: rest", "Name - rest", or with an en or em dash.
_SPLIT_ITEM = re.compile(r"\s*(?::|\s[-\u2013\u2014]\s)\s*")


@dataclass(frozen=True)
class Guidance:
    """What to change, step by step, with a fragment to follow and a worked fix."""

    primary_issue: str
    step_by_step_fix: list[str]
    template_to_follow: str
    example_fix: str
    retry_instructions: str


def guidance_for(result: Validation, attempt: int, max_attempts: int) -> Guidance:
    """Guidance for a document that failed `result` (it has at least one error)."""
    issues = [i for i in result.errors_first() if i.severity == "error"]
    first = issues[0]
    more = len(issues) - 1
    primary = first.message[0].upper() + first.message[1:]
    if more:
        primary += f" (and {more} more problem{'s' if more > 1 else ''} below)"
    steps = [f"{n}. {_step(result, issue)}" for n, issue in enumerate(issues, start=1)]
    steps.append(f"{len(steps) + 1}. {RESEND}")
    # One fragment and one worked fix per broken section, most important first, so that a
    # single retry can fix everything.
    leading: list[Issue] = []
    for issue in issues:
        if all(issue.section != seen.section for seen in leading):
            leading.append(issue)
    specs = [_spec(result.template, issue) for issue in leading]
    return Guidance(
        primary_issue=primary,
        step_by_step_fix=steps,
        template_to_follow="\n".join(spec.fragment() for spec in specs),
        example_fix="\n".join(
            _example_fix(result, issue, spec) for issue, spec in zip(leading, specs, strict=True)
        ),
        retry_instructions=_retry(result, issues, attempt, max_attempts),
    )


def _spec(template: Template, issue: Issue) -> SectionSpec:
    return next(s for s in template.sections if s.name == issue.section)


def _step(result: Validation, issue: Issue) -> str:
    spec = _spec(result.template, issue)
    heading = f'"## {spec.name}"'
    if issue.type == "missing_section":
        return (
            f"Add a {heading} section {_position(result, spec)}, written as "
            f"{FORMAT_WORDS[spec.format]}{_columns(spec)}: {spec.correction}"
        )
    if issue.type == "duplicate_section":
        return (
            f"Merge the {len(issue.detail)} {heading} sections into one at the first of them "
            "and keep every item from each."
        )
    if issue.type == "empty_section":
        return f"Fill {heading} (line {issue.line}): {spec.correction}"
    if issue.type == "format_error":
        if spec.format == "markdown_table" and issue.detail:
            return f"Add the column(s) {', '.join(issue.detail)} to the table in {heading}."
        if spec.format == "structured" and issue.detail:
            keys = ", ".join(f'"- **{key}**: ..."' for key in issue.detail)
            return f"Add {keys} to {heading}, with real values."
        return (
            f"Rewrite {heading} (line {issue.line}) as {FORMAT_WORDS[spec.format]}"
            f"{_columns(spec)}, keeping what it says: {spec.correction}"
        )
    if issue.type == "too_short":
        return f"Expand {heading} to at least {spec.min_length} characters: {spec.correction}"
    if issue.type == "placeholder":
        quoted = issue.detail[0] if issue.detail else ""
        return (
            f'In {heading}, replace "{clip(quoted)}" (line {issue.line}) with real content: '
            f"{spec.correction}"
        )
    return f"In {heading}, include {spec.pattern_hint or 'the text the pattern asks for'}."


def _example_fix(result: Validation, issue: Issue, spec: SectionSpec) -> str:
    """The author's own section, corrected as far as rules allow (examples fill the rest)."""
    document = result.document
    sections = result.found.get(spec.key, [])
    if issue.type == "missing_section":
        return _inserted(result, spec)
    section = sections[0]
    if issue.type == "duplicate_section":
        bodies = "\n\n".join(document.body(s) for s in sections)
        return f"## {spec.name}\n\n{bodies}\n"
    if issue.type == "format_error":
        return _reformatted(document, section, spec, issue)
    if issue.type in ("empty_section", "too_short"):
        own = document.body(section).strip()
        kept = f"{own}\n" if own and issue.type == "too_short" else ""
        return f"## {spec.name}\n\n{kept}{_indent_example(spec)}"
    if issue.type == "placeholder":
        return _marked(document, section, issue)
    return f"{document.source(section)}\n{_pattern_line(spec)}\n"


def _inserted(result: Validation, spec: SectionSpec) -> str:
    """The missing section, with where it goes among the author's sections."""
    return f"<!-- {_position(result, spec)} -->\n{spec.fragment()}"


def _reformatted(document: Document, section: Section, spec: SectionSpec, issue: Issue) -> str:
    pieces = _pieces(section)
    if spec.format == "markdown_table":
        table = next((b for b in section.blocks if b.kind == "table"), None)
        if table is not None:  # right format, missing columns: keep the rows, add the columns
            columns = table.columns + [c for c in spec.columns if c in issue.detail]
            rows = [row + [FILL] * (len(columns) - len(row)) for row in table.rows]
        else:
            columns = list(spec.columns)
            rows = [_cells(piece, columns) for piece in pieces] or [[FILL] * len(columns)]
        return f"## {spec.name}\n\n{_table(columns, rows)}\n"
    if spec.format == "structured":
        own = document.body(section).strip()
        added = "\n".join(f"- **{key}**: {FILL}" for key in issue.detail)
        return f"## {spec.name}\n\n{own}\n{added}\n"
    if spec.format == "markdown_list":
        items = "\n".join(f"- {piece}" for piece in pieces) or f"- {FILL}"
        return f"## {spec.name}\n\n{items}\n"
    return f"## {spec.name}\n\n" + "\n\n".join(pieces) + "\n"


def _marked(document: Document, section: Section, issue: Issue) -> str:
    """The section with the sentence that holds the placeholder swapped for a blank to fill."""
    marker = issue.detail[1] if len(issue.detail) > 1 else issue.detail[0] if issue.detail else ""
    lines = document.source(section).splitlines()
    return "\n".join(_blank(line, marker) for line in lines) + "\n"


def _blank(line: str, marker: str) -> str:
    """`line` with the placeholder's sentence (or table cell) left blank to fill in."""
    if not marker or marker not in line:
        return line
    if line.lstrip().startswith("|"):
        cells = line.split("|")
        return "|".join(f" {FILL} " if marker in cell else cell for cell in cells)
    sentences = split_sentences(line)
    return " ".join(_blank_sentence(s, marker) if marker in s else s for s in sentences)


def _blank_sentence(sentence: str, marker: str) -> str:
    # Keep a "Name:" or list marker in front of the placeholder: "- Caching: TBD".
    before = sentence[: sentence.find(marker)]
    colon = before.rfind(":")
    if colon >= 0:
        return f"{before[: colon + 1]} {FILL}"
    lead = re.match(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?", before)
    return f"{lead.group(0) if lead else ''}{FILL}"


def _pieces(section: Section) -> list[str]:
    """The author's statements in a section: list items, table rows, or sentences."""
    pieces: list[str] = []
    for block in section.blocks:
        if block.kind == "list":
            pieces += block.items
        elif block.kind == "table":
            pieces += [": ".join(cell for cell in row if cell) for row in block.rows]
        elif block.kind in ("paragraph", "quote"):
            pieces += split_sentences(block.text)
    return [p.strip() for p in pieces if p.strip()]


def _cells(piece: str, columns: list[str]) -> list[str]:
    """A statement as a table row: "name: rest" fills two columns; a bare one goes under the
    column that names things (Title, Feature, Decision...), the others left to fill in."""
    width = len(columns)
    parts = [p for p in _SPLIT_ITEM.split(piece, maxsplit=width - 1) if p]
    if len(parts) == 1 and width > 1:
        keys = [section_key(c) for c in columns]
        at = next((n for n, key in enumerate(keys) if key in _NAMING_COLUMNS), 0)
        return [parts[0] if n == at else FILL for n in range(width)]
    return (parts + [FILL] * width)[:width]


def _table(columns: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "| " + " | ".join("---" for _ in columns) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _neighbours(result: Validation, spec: SectionSpec) -> tuple[Section | None, Section | None]:
    """The author's sections that come before and after `spec` in the template's order."""
    order = [s.key for s in result.template.sections]
    position = order.index(spec.key)
    before = next(
        (result.found[k][0] for k in reversed(order[:position]) if k in result.found), None
    )
    after = next((result.found[k][0] for k in order[position + 1 :] if k in result.found), None)
    return before, after


def _position(result: Validation, spec: SectionSpec) -> str:
    before, after = _neighbours(result, spec)
    if before is not None:
        return f'after "## {before.title}"'
    if after is not None:
        return f'before "## {after.title}"'
    return "after the title"


def _columns(spec: SectionSpec) -> str:
    if spec.format == "markdown_table":
        return " with the columns " + " | ".join(spec.columns)
    if spec.format == "structured":
        return " for " + ", ".join(spec.keys)
    return ""


def _indent_example(spec: SectionSpec) -> str:
    return f"<!-- for example: -->\n{spec.example.strip()}\n"


def _pattern_line(spec: SectionSpec) -> str:
    lines = spec.example.strip().splitlines()
    pattern = spec.pattern or ""
    return next((line for line in lines if re.search(pattern, line)), lines[0] if lines else "")


def _retry(result: Validation, issues: list[Issue], attempt: int, max_attempts: int) -> str:
    broken = {issue.section for issue in issues}
    good = [
        s.name for s in result.template.sections if s.key in result.found and s.name not in broken
    ]
    keep = f"Keep the sections that already pass ({', '.join(good)}) as they are. " if good else ""
    left = max_attempts - attempt
    budget = (
        f"{left} attempt{'s' if left != 1 else ''} left before you may save it anyway."
        if left > 0
        else "No attempts left: fix it, or save it as it is with force=true."
    )
    return (
        f"{keep}Fix every step above, in order, then send the whole document (not only the "
        f"changed sections) to update_context with the same project_id and file_type. "
        f"This was attempt {attempt} of {max_attempts}: {budget}"
    )

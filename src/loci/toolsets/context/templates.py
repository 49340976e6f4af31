"""Templates of context files: the shipped ones, and the user's from `<data>/templates/`.

A template is a TOML file naming the sections a document must have, with each section's format,
minimum length, optional pattern, what belongs in it, how to fix it, and an example body. The
whole example document is assembled from the section examples, so it always matches the
template. A broken user template is reported with its path and line; the others keep working.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, cast, get_args

from loci.toolsets.context.naming import NAME_PATTERN, section_key

Format = Literal["freeform", "markdown_list", "markdown_table", "structured"]
FORMATS: tuple[str, ...] = get_args(Format)

#: What each format looks like, in the words guidance uses.
FORMAT_WORDS: Mapping[str, str] = {
    "freeform": "prose paragraphs",
    "markdown_list": 'a Markdown list (one "- " line per item)',
    "markdown_table": "a Markdown table",
    "structured": 'one "- **Key**: value" line per key',
}


@dataclass(frozen=True)
class SectionSpec:
    """What one section of a document must hold."""

    name: str
    format: Format
    purpose: str
    correction: str
    example: str
    required: bool = True
    min_length: int = 0
    columns: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    pattern: str | None = None
    pattern_hint: str | None = None
    aliases: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The normalised name sections are matched on."""
        return section_key(self.name)

    def matches(self, key: str) -> bool:
        """Whether a heading (normalised) names this section."""
        return key == self.key or key in {section_key(alias) for alias in self.aliases}

    def fragment(self) -> str:
        """This section as Markdown: its heading and example body."""
        return f"## {self.name}\n\n{self.example.strip()}\n"


@dataclass(frozen=True)
class Template:
    """A context-file template."""

    name: str
    title: str
    description: str
    sections: tuple[SectionSpec, ...]
    source: str = "builtin"

    def example(self) -> str:
        """A complete document that passes this template."""
        parts = [f"# {self.title}\n"] + [section.fragment() for section in self.sections]
        return "\n".join(parts)

    def skeleton(self) -> str:
        """The document to start from: every section's heading and what belongs there."""
        parts = [f"# {self.title}\n"] + [_skeleton_section(s) for s in self.sections]
        return "\n".join(parts)

    def section(self, key: str) -> SectionSpec | None:
        """The section a normalised heading names, if any."""
        return next((s for s in self.sections if s.matches(key)), None)


@dataclass(frozen=True)
class TemplateProblem:
    """A template file that could not be loaded."""

    path: str
    line: int | None
    message: str


@dataclass
class TemplateSet:
    """Every usable template by name, and the files that were broken."""

    templates: dict[str, Template] = field(default_factory=dict)
    problems: list[TemplateProblem] = field(default_factory=list)


def load_templates(user_folder: Path | None) -> TemplateSet:
    """The shipped templates, overridden or extended by `*.toml` files in `user_folder`."""
    found = TemplateSet()
    shipped = resources.files("loci.toolsets.context").joinpath("templates").iterdir()
    for entry in sorted(shipped, key=lambda item: item.name):
        if entry.name.endswith(".toml"):
            _add(found, entry.name, entry.read_text(encoding="utf-8"), "builtin")
    if user_folder is not None and user_folder.is_dir():
        for path in sorted(user_folder.glob("*.toml")):
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                found.problems.append(TemplateProblem(str(path), None, f"cannot read: {exc}"))
                continue
            _add(found, str(path), text, str(path))
    return found


def _add(found: TemplateSet, path: str, text: str, source: str) -> None:
    try:
        template = parse_template(tomllib.loads(text), source)
    except tomllib.TOMLDecodeError as exc:
        found.problems.append(TemplateProblem(path, _toml_line(exc, text), str(exc)))
        return
    except TemplateError as exc:
        found.problems.append(TemplateProblem(path, _line_of(text, exc.near), exc.message))
        return
    found.templates[template.name] = template


class TemplateError(Exception):
    """A template file that parses as TOML but is not a valid template."""

    def __init__(self, message: str, near: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.near = near


def parse_template(data: Mapping[str, Any], source: str = "builtin") -> Template:
    """A Template from parsed TOML; raises TemplateError saying what is wrong."""
    name = _text(data, "name")
    if not NAME_PATTERN.match(name):
        raise TemplateError(f"name {name!r} must be letters, digits, '-' or '_'", "name")
    raw_sections = data.get("sections")
    if not isinstance(raw_sections, list) or not raw_sections:
        raise TemplateError("a template needs at least one [[sections]] table", "[[sections]]")
    sections = tuple(_section(cast(Mapping[str, Any], raw)) for raw in raw_sections)
    keys = [s.key for s in sections]
    if len(set(keys)) != len(keys):
        raise TemplateError("two sections have the same name", "[[sections]]")
    return Template(
        name=name,
        title=_text(data, "title", name.replace("_", " ").title()),
        description=_text(data, "description", ""),
        sections=sections,
        source=source,
    )


def _section(raw: Mapping[str, Any]) -> SectionSpec:
    if not isinstance(raw, Mapping):
        raise TemplateError("each [[sections]] entry must be a table", "[[sections]]")
    name = _text(raw, "name")
    fmt = _text(raw, "format", "freeform")
    if fmt not in FORMATS:
        raise TemplateError(f"section {name!r}: format must be one of {', '.join(FORMATS)}", fmt)
    pattern = raw.get("pattern")
    if pattern is not None:
        try:
            re.compile(str(pattern))
        except re.error as exc:
            raise TemplateError(f"section {name!r}: bad pattern: {exc}", "pattern") from None
    spec = SectionSpec(
        name=name,
        format=cast(Format, fmt),
        purpose=_text(raw, "purpose"),
        correction=_text(raw, "correction", _text(raw, "purpose")),
        example=_text(raw, "example"),
        required=bool(raw.get("required", True)),
        min_length=_count(raw, "min_length"),
        columns=_strings(raw, "columns"),
        keys=_strings(raw, "keys"),
        pattern=None if pattern is None else str(pattern),
        pattern_hint=raw.get("pattern_hint"),
        aliases=_strings(raw, "aliases"),
    )
    if spec.format == "markdown_table" and not spec.columns:
        raise TemplateError(f"section {name!r}: a markdown_table needs columns", name)
    return spec


def _text(data: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or (default is None and not value.strip()):
        raise TemplateError(f"{key!r} must be a non-empty string", key)
    return value


def _count(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise TemplateError(f"{key!r} must be a whole number >= 0", key)
    return value


def _strings(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise TemplateError(f"{key!r} must be a list of non-empty strings", key)
    return tuple(value)


def _skeleton_section(section: SectionSpec) -> str:
    marker = "" if section.required else " (optional)"
    if section.format == "markdown_table":
        header = "| " + " | ".join(section.columns) + " |"
        rule = "| " + " | ".join("---" for _ in section.columns) + " |"
        body = f"{header}\n{rule}\n| " + " | ".join("TODO" for _ in section.columns) + " |"
    elif section.format == "structured":
        body = "\n".join(f"- **{key}**: TODO" for key in section.keys) or "- **Key**: TODO"
    elif section.format == "markdown_list":
        body = "- TODO"
    else:
        body = "TODO"
    return f"## {section.name}\n\n<!-- {section.purpose}{marker} -->\n{body}\n"


def _toml_line(exc: tomllib.TOMLDecodeError, text: str) -> int:
    found = re.search(r"line (\d+)", str(exc))
    return int(found.group(1)) if found else text.count("\n") + 1


def _line_of(text: str, near: str | None) -> int | None:
    """The first line mentioning `near` (TOML values do not carry positions)."""
    if not near:
        return None
    for number, line in enumerate(text.splitlines(), start=1):
        if near in line:
            return number
    return None

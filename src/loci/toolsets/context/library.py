"""The templates in use: shipped ones plus the user's folder, reloaded when that folder changes."""

from __future__ import annotations

import threading
from pathlib import Path

from loci.errors import NotFoundError
from loci.toolsets.context.models import (
    SectionInfo,
    TemplateInfo,
    TemplateList,
    TemplateProblemInfo,
)
from loci.toolsets.context.naming import path_name
from loci.toolsets.context.templates import Template, TemplateSet, load_templates


class TemplateLibrary:
    """Templates by name. A user's `*.toml` file overrides the shipped template of its name."""

    def __init__(self, user_folder: Path) -> None:
        self.user_folder = user_folder
        self._lock = threading.Lock()
        self._signature: tuple[tuple[str, int, int], ...] | None = None
        self._loaded = TemplateSet()

    def current(self) -> TemplateSet:
        """The templates as the user's folder holds them now."""
        signature = self._folder_signature()
        with self._lock:
            if signature != self._signature:
                self._loaded = load_templates(self.user_folder)
                self._signature = signature
            return self._loaded

    def get(self, name: str, field: str = "file_type") -> Template:
        """One template; NotFoundError names the ones there are."""
        path_name(name, field)
        templates = self.current().templates
        template = templates.get(name)
        if template is None:
            known = ", ".join(sorted(templates))
            raise NotFoundError(
                f"no template named {name!r}; the templates are: {known} (add your own as "
                f"{self.user_folder}/{name}.toml)",
                **{field: name},
            )
        return template

    def listing(self) -> TemplateList:
        """Every usable template, and the broken template files with their line."""
        loaded = self.current()
        return TemplateList(
            templates=[template_info(t) for _, t in sorted(loaded.templates.items())],
            problems=[
                TemplateProblemInfo(path=p.path, line=p.line, message=p.message)
                for p in loaded.problems
            ],
        )

    def _folder_signature(self) -> tuple[tuple[str, int, int], ...]:
        try:
            entries = sorted(self.user_folder.glob("*.toml"))
            return tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in entries)
        except OSError:
            return ()


def template_info(template: Template) -> TemplateInfo:
    """A template as the tools show it."""
    return TemplateInfo(
        name=template.name,
        title=template.title,
        description=template.description,
        source=template.source,
        sections=[
            SectionInfo(
                name=s.name,
                required=s.required,
                format=s.format,
                purpose=s.purpose,
                min_length=s.min_length,
                columns=list(s.columns),
                keys=list(s.keys),
                pattern=s.pattern,
                aliases=list(s.aliases),
            )
            for s in template.sections
        ],
        example=template.example(),
    )

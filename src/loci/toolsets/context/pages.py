"""The context files pages: the projects, a file's version rendered from its Markdown with its
validation against the template, its history, and the changes between two versions."""

from __future__ import annotations

import difflib
from typing import NamedTuple

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from loci.errors import InvalidInputError
from loci.faces.web.sessions import ViewSession
from loci.faces.web.view import PREFIX, View

#: Versions a file's page lists.
HISTORY = 50
#: Lines of unchanged text shown around each change.
DIFF_CONTEXT = 3


class DiffLine(NamedTuple):
    """One line of a diff: its kind (`file`, `hunk`, `add`, `del` or `same`) and its text."""

    kind: str
    text: str


class ContextPages:
    """The context files pages of the view."""

    def __init__(self, view: View) -> None:
        self.view = view
        # Raw HTML in a document is shown as text, and unsafe link schemes are refused.
        self.markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
        self.markdown.add_render_rule("image", image_as_text)

    async def projects(self, request: Request, session: ViewSession) -> Response:
        """Every project with its files."""
        found = await self.view.run(lambda app: app.context.list_projects())
        return self.view.page(request, "projects.html", session, projects=found.projects)

    async def file(self, request: Request, session: ViewSession) -> Response:
        """One file: a version (the newest by default), its validation, its history, and with
        `against` the changes from that version to this one."""
        project = str(request.path_params["project_id"])
        file_type = str(request.path_params["file_type"])
        version = _version(request.query_params.get("version"), "version")
        against = _version(request.query_params.get("against"), "against")
        shown = await self.view.run(
            lambda app: app.context.get_context(project, file_type, version)
        )
        checked = await self.view.run(lambda app: app.context.check(file_type, shown.content))
        history = await self.view.run(lambda app: app.context.history(project, file_type, HISTORY))
        diff: list[DiffLine] = []
        if against is not None:
            older = await self.view.run(
                lambda app: app.context.get_context(project, file_type, against)
            )
            diff = changes(
                older.content, shown.content, f"version {against}", f"version {shown.version}"
            )
        return self.view.page(
            request,
            "context_file.html",
            session,
            file=shown,
            rendered=self.markdown.render(shown.content),
            checked=checked,
            history=history.versions,
            diff=diff,
            against=against,
        )


def image_as_text(
    renderer: object, tokens: list[Token], idx: int, options: object, env: object
) -> str:
    """An image of a document shown as its description and address, never loaded: a
    document's `![x](/ui/export)` would otherwise make every reader's browser call the view
    (the policy's `img-src` refuses it too)."""
    del renderer, options, env
    token = tokens[idx]
    alt = "".join(child.content for child in token.children or [])
    source = str(token.attrGet("src") or "")
    return (
        f'<span class="image">[image: {escapeHtml(alt or "no description")}] '
        f"<code>{escapeHtml(source)}</code></span>"
    )


def changes(before: str, after: str, old_name: str, new_name: str) -> list[DiffLine]:
    """The lines of a unified diff from `before` to `after`, each with its kind."""
    lines = difflib.unified_diff(
        before.splitlines(), after.splitlines(), old_name, new_name, n=DIFF_CONTEXT, lineterm=""
    )
    kinds = {"+": "add", "-": "del", "@": "hunk"}
    return [
        DiffLine("file" if line[:3] in ("+++", "---") else kinds.get(line[:1], "same"), line)
        for line in lines
    ]


def _version(text: str | None, field: str) -> int | None:
    if not text:
        return None
    if not text.isdigit() or len(text) > 9:
        raise InvalidInputError(f"{field} must be a version number, got {text[:20]!r}", field=field)
    return int(text)


def routes(view: View) -> list[BaseRoute]:
    """The context pages: the projects and one context file."""
    context = ContextPages(view)
    return [
        Route(f"{PREFIX}/context", view.guarded(context.projects, toolset="context")),
        Route(
            f"{PREFIX}/context/{{project_id}}/{{file_type}}",
            view.guarded(context.file, toolset="context"),
        ),
    ]

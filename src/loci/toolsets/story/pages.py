"""The story pages: the sessions; a session's pressure gauge (its window against its budget,
and the reliefs over time), its cast and places, its plot threads, a search of the whole
story, the suggested corrections of its cast (each accepted with one button) and the writer's
corrections (each taken back with one); a character's page with the corrections (rename,
merge, split a name off, not a character) made from it, as `correct_character` makes them,
and the suggestions that concern it."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from loci.faces.web.sessions import ViewSession
from loci.faces.web.view import PREFIX, View, one_of
from loci.toolsets.story.curation import correct, listing, undo
from loci.toolsets.story.lookup import character, entities_of, search
from loci.toolsets.story.suggestions import suggest

#: Characters and places a session's page lists, and hits its search shows.
CAST_LISTED = 200
HITS = 10
#: Suggested corrections a page shows.
SUGGESTED = 10


class StoryPages:
    """The story pages of the view."""

    def __init__(self, view: View) -> None:
        self.view = view

    async def sessions(self, request: Request, session: ViewSession) -> Response:
        """Every story session."""
        found = await self.view.run(lambda app: app.story.sessions())
        return self.view.page(request, "story_sessions.html", session, listed=found.sessions)

    async def story(self, request: Request, session: ViewSession) -> Response:
        """A session: its gauge and reliefs, cast, places, threads, and search hits for `q`."""
        session_id = str(request.path_params["session_id"])
        query = (request.query_params.get("q") or "").strip()

        def read(app: Any) -> dict[str, Any]:
            story = app.story
            return {
                "stats": story.stats(session_id),
                "cast": entities_of(story, session_id, "character", CAST_LISTED),
                "places": entities_of(story, session_id, "place", CAST_LISTED),
                "threads": story.plot_threads(session_id),
                "hits": search(story, session_id, query, None, HITS).hits if query else [],
                "suggestions": suggest(story, session_id, SUGGESTED).suggestions,
                "corrections": listing(story, session_id),
            }

        shown = await self.view.run(read)
        return self.view.page(
            request, "story.html", session, session_id=session_id, q=query, **shown
        )

    async def character(self, request: Request, session: ViewSession) -> Response:
        """What the story says of one character (or place), with the correction forms."""
        session_id = str(request.path_params["session_id"])
        name = str(request.path_params["name"])

        def read(app: Any) -> tuple[Any, list[Any]]:
            found = character(app.story, session_id, name)
            own = set(found.aliases)
            about = [
                s
                for s in suggest(app.story, session_id, SUGGESTED).suggestions
                if s.name in own or s.other in own
            ]
            return found, about

        found, about = await self.view.run(read)
        return self.view.page(
            request,
            "character.html",
            session,
            toolset="story",
            session_id=session_id,
            entity=found,
            suggestions=about,
        )

    async def correct(self, request: Request, session: ViewSession) -> Response:
        """Apply a correction from the character page; show the entity as it now stands."""
        session_id = str(request.path_params["session_id"])
        form = await request.form()
        action = one_of(form, "action")
        found = await self.view.run(
            lambda app: correct(
                app.story, session_id, action, one_of(form, "name"), one_of(form, "other")
            )
        )
        # `correct` refused any action but its own: the notice names one of those.
        return self.view.redirect(
            f"{PREFIX}/story/{_path(session_id)}/who/{_path(found.name)}",
            session,
            f"Corrected ({action}).",
        )

    async def undo(self, request: Request, session: ViewSession) -> Response:
        """Take back a correction of the cast (the one numbered in the form, else the last);
        back to the story's page, saying which."""
        session_id = str(request.path_params["session_id"])
        form = await request.form()
        number = one_of(form, "number")
        wanted = int(number) if number.isdigit() else None
        result = await self.view.run(lambda app: undo(app.story, session_id, wanted))
        return self.view.redirect(
            f"{PREFIX}/story/{_path(session_id)}", session, f"Undone: {result.undone}."
        )


def _path(text: str) -> str:
    """`text` as one segment of a URL path."""
    return quote(text, safe="")


def routes(view: View) -> list[BaseRoute]:
    """The story pages: the sessions, one story, a character, corrections and their undoing."""
    stories = StoryPages(view)
    return [
        Route(f"{PREFIX}/stories", view.guarded(stories.sessions, toolset="story")),
        Route(f"{PREFIX}/story/{{session_id}}", view.guarded(stories.story, toolset="story")),
        Route(
            # `path`: a name may hold a "/" (sent as %2F, which the server decodes first).
            f"{PREFIX}/story/{{session_id}}/who/{{name:path}}",
            view.guarded(stories.character, toolset="story"),
        ),
        Route(
            f"{PREFIX}/story/{{session_id}}/correct",
            view.guarded(stories.correct, True, toolset="story"),
            methods=["POST"],
        ),
        Route(
            f"{PREFIX}/story/{{session_id}}/undo",
            view.guarded(stories.undo, True, toolset="story"),
            methods=["POST"],
        ),
    ]

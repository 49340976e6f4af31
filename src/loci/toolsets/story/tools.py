"""The `story` toolset: a virtual infinite context for long writing sessions."""

import json
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

from loci.faces.mcp.arguments import ADDITIVE, READ_ONLY
from loci.faces.mcp.idempotency import IdempotencyKey, keyed
from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings
from loci.toolsets.story.models import (
    CastSuggestions,
    CharacterInfo,
    ContextStats,
    ContinueResult,
    PlotThread,
    PlotThreads,
    StoryContext,
    StorySearchResult,
    StorySessionList,
    StorySettings,
    UndoResult,
)

SessionId = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z0-9_-]{1,128}$",
        max_length=128,
        description="The story session (letters, digits, '_' or '-'); continue_story starts it.",
    ),
]
StoryText = Annotated[str, Field(max_length=16 * 1024 * 1024)]


class CharacterList(BaseModel):
    """A session's confirmed characters or places."""

    session_id: str
    entities: list[CharacterInfo]


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the story tools and resources to `server`."""
    del settings  # sizes are checked by the service, which knows the configured limits

    def continue_story(
        session_id: SessionId,
        user_input: Annotated[str, Field(description="The writer's turn (may be empty).")],
        assistant_response: Annotated[str, Field(description="The story text written.")],
        settings: Annotated[
            StorySettings | None,
            Field(
                description="Optional: change the session's budgets and weights from now on "
                "(max_tokens 12000, pressure_threshold 0.8, relief_percentage 0.4, chunk_size "
                "3200, ...); fields left out keep their values."
            ),
        ] = None,
        idempotency_key: IdempotencyKey | None = None,
    ) -> ContinueResult:
        """Add an interaction to a story session (started on first use). The window keeps
        the latest text within its token budget; past its pressure threshold the oldest whole
        paragraphs are archived (nothing is lost). Returns the pressure and what was archived."""
        changes = None if settings is None else settings.model_dump(exclude_unset=True)
        return keyed(
            provider,
            "continue_story",
            idempotency_key,
            {
                "session_id": session_id,
                "input": user_input,
                "response": assistant_response,
                "settings": changes,
            },
            ContinueResult,
            lambda app: app.story.continue_story(
                session_id, user_input, assistant_response, changes
            ),
        )

    def get_story_context(
        session_id: SessionId,
        current_input: Annotated[str, Field(description="What the writer asks for next.")],
        max_tokens: Annotated[
            int | None, Field(ge=100, le=1_000_000, description="Budget (default: the session's).")
        ] = None,
    ) -> StoryContext:
        """The context to put in the prompt for the next turn: the characters and places in
        play, the earlier passages most relevant to the input, and the most recent text,
        within max_tokens (room is kept for the input and the answer). Each part says why."""
        from loci.toolsets.story.assembly import assemble

        return provider.call(lambda app: assemble(app.story, session_id, current_input, max_tokens))

    def search_story_memory(
        session_id: SessionId,
        query: Annotated[str, Field(description="What to find (a detail, an event, a line).")],
        entity_type: Annotated[
            Literal["character", "place"] | None,
            Field(description="Only passages naming a character (or a place)."),
        ] = None,
        max_results: Annotated[int, Field(ge=1, le=50)] = 5,
        include_chunk: Annotated[
            bool, Field(description="Also give each archived hit's whole chunk (8-12k characters).")
        ] = False,
    ) -> StorySearchResult:
        """Search the whole story (archive and window) for passages relevant to the query,
        ranked by meaning, shared characters, story position and the entity graph. Each hit's
        `passage` is the few sentences that answer the query."""
        from loci.toolsets.story.lookup import search

        return provider.call(
            lambda app: search(
                app.story, session_id, query, entity_type, max_results, include_chunk
            )
        )

    def get_character_info(
        session_id: SessionId,
        character_name: Annotated[str, Field(max_length=128, description="Any name or alias.")],
    ) -> CharacterInfo:
        """What the story says about a character (or place): aliases, the sentence that
        introduced them, first and recent mentions, and who they appear with."""
        from loci.toolsets.story.lookup import character

        return provider.call(lambda app: character(app.story, session_id, character_name))

    def correct_character(
        session_id: SessionId,
        action: Annotated[
            Literal["rename", "merge", "split", "alias", "kind", "apart"],
            Field(
                description="rename: show the entity as `other`; merge: `other` is the same "
                "entity as `name`; split: `other` (one of its names) is someone else, with its own "
                'forms ("Dick" with "Richard"); alias: '
                "`other` is another name of it; kind: `other` is character, place or other "
                "(other: not a character), and words the story writes as a name that the cast "
                "missed are added; apart: `other` is not `name` (a suggestion to join them "
                "declined: it is not offered again)."
            ),
        ],
        name: Annotated[
            str,
            Field(
                max_length=128,
                description="Any name of the entity, as the story writes it (one it never "
                "writes is refused, with the closest names it does).",
            ),
        ],
        other: Annotated[
            str, Field(max_length=128, description="The new name, other entity, name or kind.")
        ],
    ) -> CharacterInfo:
        """Correct the story's cast where it is wrong: two names of one person kept apart,
        two people joined, a place or a word taken for a character, a display name. The
        correction is kept and applied over every later reading of the story; character info
        lists it. Returns the entity as it now stands."""
        from loci.toolsets.story.curation import correct

        return provider.call(lambda app: correct(app.story, session_id, action, name, other))

    def suggest_cast_corrections(
        session_id: SessionId,
        limit: Annotated[int, Field(ge=1, le=50, description="Most suggestions.")] = 10,
    ) -> CastSuggestions:
        """Corrections of the story's cast a careful reader would suggest (an epithet or a
        calling that is one character's, a name that fits several people, a married or maiden
        name, a character the cast missed, a name that is no person's), each with the
        mentions it would set right, why, and a sentence of evidence, best first. Accept one
        by calling correct_character with its action, name and other; decline a merge or an
        alias with action `apart` (a kind: with the kind the entity has, `other` for a name
        the cast holds for no one); also lists the corrections made so far."""
        from loci.toolsets.story.suggestions import suggest

        return provider.call(lambda app: suggest(app.story, session_id, limit))

    def undo_cast_correction(
        session_id: SessionId,
        correction: Annotated[
            int | None,
            Field(ge=1, description="The correction's number (default: the last one made)."),
        ] = None,
    ) -> UndoResult:
        """Take back a correction of the cast (the last one, or the one numbered as character
        info and suggest_cast_corrections list them), with the names it brought; the cast is
        worked out again without it. A correction a later one names the same names as is
        refused (conflict) with the later ones to undo first. Returns the corrections that
        remain."""
        from loci.toolsets.story.curation import undo

        return provider.call(lambda app: undo(app.story, session_id, correction))

    def get_plot_threads(session_id: SessionId) -> PlotThreads:
        """The session's plot threads, active and resolved, and which share characters."""
        return provider.call(lambda app: app.story.plot_threads(session_id))

    def update_plot_thread(
        session_id: SessionId,
        name: Annotated[str, Field(min_length=1, max_length=128, description="The thread.")],
        action: Annotated[
            Literal["open", "advance", "resolve", "reopen"],
            Field(description="open a new thread, advance it with a note, resolve or reopen it."),
        ],
        note: Annotated[str, Field(max_length=2000, description="What happened.")] = "",
        entities: Annotated[
            list[Annotated[str, Field(max_length=128)]] | None,
            Field(max_length=50, description="Characters or places involved."),
        ] = None,
    ) -> PlotThread:
        """Open, advance, resolve or reopen a plot thread you recognise, at the story's
        current position (threads detected in the text can be updated the same way)."""
        return provider.call(
            lambda app: app.story.update_thread(session_id, name, action, note, entities)
        )

    def get_context_stats(session_id: SessionId) -> ContextStats:
        """Pressure, window and story tokens, relief history and memory counts of a session."""
        return provider.call(lambda app: app.story.stats(session_id))

    def list_story_sessions() -> StorySessionList:
        """Every story session, most recently updated first."""
        return provider.call(lambda app: app.story.sessions())

    tools = [
        (continue_story, "Continue a story", ADDITIVE),
        (get_story_context, "Assemble story context", READ_ONLY),
        (search_story_memory, "Search story memory", READ_ONLY),
        (get_character_info, "Character information", READ_ONLY),
        (correct_character, "Correct the cast", ADDITIVE),
        (suggest_cast_corrections, "Suggest cast corrections", READ_ONLY),
        (undo_cast_correction, "Undo a cast correction", ADDITIVE),
        (get_plot_threads, "List plot threads", READ_ONLY),
        (update_plot_thread, "Update a plot thread", ADDITIVE),
        (get_context_stats, "Story context statistics", READ_ONLY),
        (list_story_sessions, "List story sessions", READ_ONLY),
    ]
    for function, title, annotations in tools:
        server.add_tool(function, title=title, annotations=annotations, structured_output=True)
    _register_resources(server, provider)


def _register_resources(server: MCPServer, provider: AppProvider) -> None:
    @server.resource(
        "story://{session_id}/current-context",
        name="story-current-context",
        title="Current story window",
        mime_type="application/json",
    )
    def current_context(session_id: str) -> str:
        """The session's window (its most recent text) with its token count and pressure."""

        def read(app: Any) -> str:
            stats = app.story.stats(session_id)
            return json.dumps(
                {
                    "session_id": stats.session_id,
                    "window_tokens": stats.window_tokens,
                    "max_tokens": stats.max_tokens,
                    "pressure": stats.pressure,
                    "text": app.story.window(session_id),
                }
            )

        return provider.read(read)

    @server.resource(
        "story://{session_id}/characters",
        name="story-characters",
        title="Story characters",
        mime_type="application/json",
    )
    def characters(session_id: str) -> str:
        """The session's confirmed characters, most mentioned first."""
        from loci.toolsets.story.lookup import entities_of

        return provider.read(
            lambda app: CharacterList(
                session_id=session_id, entities=entities_of(app.story, session_id)
            ).model_dump_json()
        )

    @server.resource(
        "story://{session_id}/memory-stats",
        name="story-memory-stats",
        title="Story memory statistics",
        mime_type="application/json",
    )
    def memory_stats(session_id: str) -> str:
        """Pressure, tokens, relief history and memory counts of the session."""
        return provider.read(lambda app: app.story.stats(session_id).model_dump_json())

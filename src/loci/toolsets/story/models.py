"""The story toolset's settings per session and the shapes of its results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from loci.errors import InvalidInputError


class StorySettings(BaseModel):
    """A session's budgets and weights (fixed when the session starts, changeable later).

    The design relieves 40% of the maximum once the window reaches 80% of it, which lands the
    window at 40%; relief here follows those numbers (it archives the oldest units until the
    window is at most `pressure_threshold - relief_percentage` of `max_tokens`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_tokens: int = Field(default=12_000, ge=1_000, le=1_000_000)
    pressure_threshold: float = Field(default=0.8, gt=0.1, le=0.95)
    relief_percentage: float = Field(default=0.4, gt=0.0, lt=0.9)
    chunk_size: int = Field(default=3_200, ge=100, le=100_000)
    answer_reserve: int = Field(default=500, ge=0, le=100_000)
    recent_share: float = Field(default=0.7, ge=0.0, le=1.0)
    semantic_weight: float = Field(default=0.4, ge=0.0, le=1.0)
    entity_weight: float = Field(default=0.3, ge=0.0, le=1.0)
    recency_weight: float = Field(default=0.2, ge=0.0, le=1.0)
    graph_weight: float = Field(default=0.1, ge=0.0, le=1.0)
    recency_half_life: int = Field(
        default=96_000, ge=100, description="Story tokens over which recency halves."
    )
    confirm_after: int = Field(default=2, ge=1, le=100)

    @model_validator(mode="after")
    def _relief_leaves_room(self) -> StorySettings:
        if self.relief_percentage >= self.pressure_threshold:
            raise ValueError("relief_percentage must be below pressure_threshold")
        return self

    def changed(self, changes: dict[str, object]) -> StorySettings:
        """These settings with `changes` applied; InvalidInputError names what is wrong."""
        try:
            return StorySettings.model_validate({**self.model_dump(), **changes})
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'settings'}: {e['msg']}"
                for e in exc.errors()
            )
            raise InvalidInputError(
                f"invalid story settings: {problems}", field="settings"
            ) from exc

    @property
    def chunk_tokens(self) -> int:
        """Most tokens in one archived chunk (never more than the window holds)."""
        return min(self.chunk_size, self.max_tokens)

    @property
    def relief_target(self) -> int:
        """The window's tokens after a relief, at most."""
        return int(self.max_tokens * (self.pressure_threshold - self.relief_percentage))

    @property
    def relief_trigger(self) -> int:
        """Above this many tokens the window is relieved."""
        return int(self.max_tokens * self.pressure_threshold)


class ArchivedChunk(BaseModel):
    """A chunk that relief moved from the window to the archive."""

    chunk_id: int
    tokens: int
    start: int = Field(description="Character offset of the chunk in the story.")
    end: int
    preview: str = Field(description="The chunk's first words.")


class ContinueResult(BaseModel):
    """What `continue_story` did."""

    session_id: str
    interaction: int = Field(description="Number of this interaction in the session (from 1).")
    window_tokens: int
    max_tokens: int
    pressure: float = Field(description="window_tokens / max_tokens.")
    relieved: bool
    archived: list[ArchivedChunk]
    story_tokens: int = Field(description="Tokens of the whole story so far.")


class ContextPart(BaseModel):
    """One part of an assembled context, and why it was chosen."""

    kind: Literal["recent", "memory", "entity"]
    tokens: int
    reason: str
    chunk_id: int | None = None
    score: float | None = None


class StoryContext(BaseModel):
    """A context ready to put in a prompt."""

    session_id: str
    text: str
    tokens: int = Field(description="Tokens of `text`; never above max_tokens.")
    max_tokens: int
    parts: list[ContextPart]


class StoryHit(BaseModel):
    """A passage of the story that matches, with the chunk (or window) holding it."""

    where: Literal["archive", "window"]
    chunk_id: int | None = Field(description="The archived chunk holding the passage.")
    score: float
    signals: dict[str, float]
    passage: str = Field(
        description="The sentences of the matching passage that answer the query (whole "
        "sentences, a few hundred characters at most)."
    )
    prompt: bool = Field(
        default=False, description="The passage is the writer's prompt, not story text."
    )
    chunk: str | None = Field(
        description="The whole archived chunk, when asked for (include_chunk); None otherwise "
        "and in the window."
    )
    position: int = Field(description="Story position of the passage, in tokens.")
    entities: list[str] = Field(
        description="The characters, places and households the passage names, as each is shown."
    )


class StorySearchResult(BaseModel):
    """Matches for a query, best first."""

    session_id: str
    query: str
    hits: list[StoryHit]


class Mentioned(BaseModel):
    """Where an entity was mentioned."""

    position: int = Field(description="Story position, in tokens.")
    excerpt: str


class Relationship(BaseModel):
    """Another entity and how they are related."""

    name: str
    kind: str
    relation: str
    weight: int


class CharacterInfo(BaseModel):
    """What the story says about a character (or place)."""

    session_id: str
    name: str
    kind: str
    confirmed: bool
    aliases: list[str]
    derived_aliases: list[str] = Field(
        default_factory=list,
        description='Those of `aliases` the story writes only inside a longer name ("Sawyer" '
        'of "Tom Sawyer", "Waldman" of "M. Waldman"): they find the character, but a '
        "correction names the story's own names.",
    )
    description: str
    mentions: int
    first_mention: Mentioned = Field(
        description="Where it is first named; the excerpt is what introduced it: the first "
        "sentence of each of its names, earliest first, while they are short."
    )
    recent_mentions: list[Mentioned]
    relationships: list[Relationship] = Field(
        description="Who or what it appears with, most often first: given for one character "
        "(`get_character_info`, `loci story character`); a list of the cast leaves it empty."
    )
    corrections: list[str] = Field(
        default_factory=list, description="The writer's corrections of this entity."
    )
    warning: str | None = Field(
        default=None,
        description="After a correction: what in it looks wrong (two people merged), if any.",
    )


class ThreadEvent(BaseModel):
    """A step of a plot thread."""

    position: int
    note: str


class PlotThread(BaseModel):
    """A plot thread, opened by the agent or detected in the text."""

    name: str
    status: Literal["active", "resolved"]
    source: Literal["agent", "detected"]
    description: str
    entities: list[str]
    events: list[ThreadEvent]
    opened_at: int = Field(description="Story position (tokens) where the thread opened.")
    updated_at: int


class ThreadConnection(BaseModel):
    """Two threads that share characters or places."""

    a: str
    b: str
    shared: list[str]


class PlotThreads(BaseModel):
    """The session's plot threads."""

    session_id: str
    active: list[PlotThread]
    resolved: list[PlotThread]
    connections: list[ThreadConnection]


class Relief(BaseModel):
    """One relief of the window."""

    at: str
    interaction: int
    tokens_before: int
    tokens_after: int
    chunks: int
    milliseconds: float


class ContextStats(BaseModel):
    """Where a session stands."""

    session_id: str
    pressure: float
    window_tokens: int
    max_tokens: int
    story_tokens: int
    interactions: int
    archived_chunks: int
    archived_tokens: int
    passages: int
    characters: int
    places: int
    active_threads: int
    resolved_threads: int
    reliefs: int
    relief_history: list[Relief] = Field(description="The latest reliefs, newest first.")
    settings: StorySettings


class StorySession(BaseModel):
    """A story session in a listing."""

    session_id: str
    interactions: int
    story_tokens: int
    window_tokens: int
    created_at: str
    updated_at: str


class StorySessionList(BaseModel):
    """Every story session, most recently updated first."""

    sessions: list[StorySession]


class UndoResult(BaseModel):
    """A correction of the cast taken back, and those that remain."""

    session_id: str
    undone: str = Field(description="The correction taken back, in words.")
    corrections: list[str] = Field(description="The writer's corrections that remain, numbered.")


class CastSuggestion(BaseModel):
    """A correction of the cast a careful reader would suggest: accepted by calling
    `correct_character` with its `action`, `name` and `other`."""

    number: int = Field(default=0, description="Its rank: 1 sets right the most mentions.")
    action: Literal["merge", "alias", "kind"]
    name: str = Field(description="The entity kept (or marked, for `kind`).")
    other: str = Field(description="The name merged or added to it, or the kind it is.")
    mentions: int = Field(description="The mentions it would set right.")
    reason: str = Field(description="Why, in words.")
    evidence: str = Field(description="A sentence of the story that shows it.")


class CastSuggestions(BaseModel):
    """Suggested corrections of the cast, best first, and the writer's corrections so far."""

    session_id: str
    suggestions: list[CastSuggestion]
    corrections: list[str] = Field(
        description="The corrections so far, numbered (undo_cast_correction): the writer's, "
        "and those loci accepted itself at import."
    )


@dataclass(frozen=True)
class StoryLimits:
    """Bounds the story service enforces (from Settings)."""

    max_input_bytes: int = 256 * 1024
    max_results: int = 50
    defaults: StorySettings = field(default_factory=StorySettings)

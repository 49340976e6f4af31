"""An entity of a story's cast, as the tools read it."""

from __future__ import annotations

from dataclasses import dataclass, field

from loci.toolsets.story.kinds import Kind

#: The sentences that introduce a name are kept until they are this long.
INTRODUCTION_CHARS = 320
#: ... and only within this many tokens after its first mention (an introduction is one
#: passage, not lines gathered from the whole story), unless they are shorter than a line so
#: far ("Whitlock, out.", a log's signature, says nothing of him).
INTRODUCTION_REACH = 300
INTRODUCTION_LINE = 80


def introduces(said_so_far: str, distance: int) -> bool:
    """Whether a sentence `distance` tokens after a name's first mention goes on with the
    introduction `said_so_far`."""
    return distance <= INTRODUCTION_REACH or len(said_so_far) < INTRODUCTION_LINE


@dataclass(frozen=True)
class Seen:
    """Where an entity was mentioned: its story position (tokens) and the sentence."""

    position: int
    excerpt: str


@dataclass
class Entity:
    """A character, place or other entity as the cast knows it."""

    id: int
    name: str
    kind: Kind
    mentions: int
    first: Seen
    recent: list[Seen]
    aliases: list[str]
    names: list[int] = field(default_factory=list)
    corrections: list[str] = field(default_factory=list)
    #: Aliases the story never writes on their own, only inside a longer name ("Waldman" of
    #: "M. Waldman"): listed to look the entity up by, never a name a correction can name.
    derived: list[str] = field(default_factory=list)
    #: A character a name of theirs writes in full ("Charles Hodges"; `full_names.mark`).
    in_full: bool = False
    #: Named in a correction that vouches for it: any but a suggestion declined (`apart`),
    #: which says what it is not ("Mrs. M." kept apart from Mrs. Mainwaring is no one yet).
    vouched: bool = False

    @property
    def written(self) -> list[str]:
        """Its aliases the story writes (each a name of the story's)."""
        return [alias for alias in self.aliases if alias not in self.derived]

    def confirmed(self, after: int) -> bool:
        """Mentioned at least `after` times (once fewer if named in full:
        `loci.toolsets.story.full_names`), or named in a correction of the writer's (a name
        the writer marked as a place, or merged, is one they vouch for; `vouched`)."""
        if self.vouched or self.mentions >= after:
            return True
        return self.in_full and self.mentions >= after - 1

"""Text of imported messages made fit to store: tool output trimmed, characters a memory
refuses removed, and a message longer than a memory may be cut into parts at paragraph or line
ends (nothing said is lost)."""

from __future__ import annotations

#: Characters of tool output (a command's result, a code run) kept: enough to recall what
#: happened, not the whole log.
TOOL_OUTPUT_CHARS = 600


def trimmed(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, saying how much was left out."""
    text = text.strip()
    if len(text) <= limit:
        return text
    return f"{text[:limit].rstrip()} [... {len(text) - limit} more characters]"


def clean(text: str) -> str:
    """Text a memory accepts: no NUL, no lone surrogate halves (broken emoji in some exports)."""
    text = text.replace("\x00", "")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text.strip()


def parts(text: str, max_bytes: int) -> list[str]:
    """`text` in pieces of at most `max_bytes` UTF-8 bytes, cut after a paragraph, else a
    line, else a space, else anywhere (on a character boundary)."""
    pieces: list[str] = []
    rest = text
    while len(rest.encode("utf-8")) > max_bytes:
        head = rest.encode("utf-8")[:max_bytes].decode("utf-8", "ignore")
        cut = _cut_point(head)
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return [piece for piece in pieces if piece]


def _cut_point(head: str) -> int:
    for mark in ("\n\n", "\n", " "):
        at = head.rfind(mark)
        if at > len(head) // 2:
            return at + len(mark)
    return len(head)

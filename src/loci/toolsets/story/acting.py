"""Words after a name that show a person acting: a verb in the past ("Maren closed the
door", "Lal Chowdar shook his head") or, in a journal written as things happen, the present
("Edmund laughs at me", "Edmund says"). A place or a thing seldom does either."""

from __future__ import annotations

import re

#: The past of a verb right after a name: regular ones, and the irregular forms no present or
#: noun shares ("shook", "came", not "set" or "read").
ACTS_AFTER = re.compile(
    r"^,?\s+(?:[a-z]+ed|said|felt|saw|took|knew|thought|wept|smiled|laughed|came|went|rose"
    r"|ran|sat|stood|gave|got|made|told|began|spoke|wrote|heard|brought|found|kept|shook"
    r"|threw|drew|knelt|fell|rode|sang|slept|sprang|struck|swore|taught|tore|wore|woke"
    r"|broke|caught|chose|drank|drove|ate|fled|flung|forgot|hid|sent|sought|stole|bent"
    r"|bought|crept|fought|flew|lost|strode|understood|withdrew|held|meant|left|led"
    r"|says|feels|sees|takes|knows|thinks|weeps|smiles|laughs)\b"
)
#: How far after a name its verb is looked for.
REACH = 40


def acts_after(text: str, end: int) -> bool:
    """Whether the name ending at `end` of `text` acts: a verb of `ACTS_AFTER` follows it."""
    return ACTS_AFTER.search(text[end : end + REACH]) is not None

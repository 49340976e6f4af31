"""A creature the text names with a common word ("he's called Nut") is in the cast, though
NER takes the word for an organisation's or a thing's."""

from __future__ import annotations

from loci.app import App
from loci.toolsets.story.lookup import character
from tests.storytext import told

STORY = [
    "Dickon came across the moor with a fox cub at his heels and two squirrels in his "
    "pockets. \"It's named Captain. This here one he's called Nut an' this here other one's called Shell,\" "
    "he said.",
    "Nut leaped on to his right shoulder and Shell sat on his left. Mary laughed.",
    "Nut had crept on to her dress, and Shell had scrambled down the trunk of the tree.",
    "Mary fed Nut a crumb of bread. Shell would not come near. Dickon whistled to them.",
    "Captain trotted quietly close to his side, and Dickon scratched Captain's back.",
]


def test_a_creature_named_with_a_common_word_is_a_character(app: App) -> None:
    told(app, "garden", STORY, times=2)
    for name in ("Nut", "Shell", "Captain"):
        found = character(app.story, "garden", name)
        assert found.kind == "character", (name, found.kind)
        assert found.mentions >= 6

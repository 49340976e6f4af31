"""A child's words for a parent or a grandparent ("Marmee", "Papa", "Granny"): names a
story gives someone it names otherwise, which no name list records."""

from __future__ import annotations

import re

from loci.toolsets.story.names import key

#: Nursery words for a mother and a father, in any spelling: "ma" or "mo" and an m ("Mamma",
#: "Mummy", "Marmee"), "pa" and a p, or "da" and a d ("Papa", "Daddy"); "Ma" and "Pa".
MOTHER_WORD = re.compile(r"m[aou]r?m+(?:a|ee|ie|y)?|ma")
FATHER_WORD = re.compile(r"p[ao]p+(?:a|ie|y)?|da+d+(?:a|ie|y)?|pa")
#: A child's words for a grandparent: "Grandfather", "Grandpapa", "Granny", "Gran", "Nana".
GRANDMOTHER_WORD = re.compile(
    r"grand(?:mother|ma|mamma|mama|mammy)|grann?(?:y|ie)?|gramma|nann?a|nonna"
)
GRANDFATHER_WORD = re.compile(
    r"grand(?:father|pa|papa|pappy|dad|daddy|sire|pop)|grandad|gramps|grampa"
)


def parent_word_sex(written: str) -> str | None:
    """The sex of the parent (or grandparent) a name is a child's word for ("Marmee": "f";
    "Grandfather": "m"), if it is one."""
    word = key(written)
    if MOTHER_WORD.fullmatch(word) or GRANDMOTHER_WORD.fullmatch(word):
        return "f"
    return "m" if FATHER_WORD.fullmatch(word) or GRANDFATHER_WORD.fullmatch(word) else None


def is_grandparent_word(written: str) -> bool:
    """Whether a name is a child's word for a grandparent ("Grandfather", "Granny")."""
    word = key(written)
    return bool(GRANDMOTHER_WORD.fullmatch(word) or GRANDFATHER_WORD.fullmatch(word))

"""Titles written before names, and what each says: a person's sex and whether a woman is
married ("Mr." is not "Mrs.", "Mrs." is not "Miss"), whether the word after is a surname ("Mr.
Darcy") or a given name ("Sir William"), and titles of rank that go with a domain ("the Queen
of the Field Mice"). `nameparser` knows which words are titles; what it does not record is kept
here.
"""

from __future__ import annotations

#: Titles that say a person's sex: (sex, married) with married True, False, or None (unsaid).
SEXED_TITLES: dict[str, tuple[str, bool | None]] = {
    **dict.fromkeys(
        ("mr", "mister", "messrs", "sir", "lord", "master", "monsieur", "m", "herr", "signor"),
        ("m", None),
    ),
    **dict.fromkeys(("don", "king", "prince", "duke", "father", "uncle", "brother"), ("m", None)),
    **dict.fromkeys(("baron", "count", "earl", "abbot", "friar"), ("m", None)),
    **dict.fromkeys(("viscount", "marquis", "marquess"), ("m", None)),
    **dict.fromkeys(("squire", "parson", "gaffer", "farmer"), ("m", None)),
    # The French Revolution's titles ("Citizen Evremonde", "Citizeness Defarge").
    **dict.fromkeys(("citizen", "citoyen"), ("m", None)),
    **dict.fromkeys(("citizeness", "citoyenne"), ("f", None)),
    "widow": ("f", True),
    **dict.fromkeys(("goody", "mistress"), ("f", None)),
    # As the northern and southern English of novels write "Mister" and "Master": "Mester
    # Craven", "Mas'r George".
    **dict.fromkeys(("mester", "mas'r", "mas\u2019r", "marse"), ("m", None)),
    **dict.fromkeys(
        ("mrs", "madame", "mme", "frau", "signora", "duchess", "countess", "contessa"),
        ("f", True),
    ),
    **dict.fromkeys(("miss", "mademoiselle", "mlle", "signorina"), ("f", False)),
    # "Mademoiselle" as English novels' servants say it: "Ma'amselle Manette".
    **dict.fromkeys(
        (f"{a}{q}{b}" for a, b in (("ma", "amselle"), ("mam", "selle")) for q in "'\u2019"),
        ("f", False),
    ),
    **dict.fromkeys(("ms", "madam", "lady", "queen", "mother", "sister", "dame"), ("f", None)),
    "aunt": ("f", True),
    **dict.fromkeys(("princess", "baroness", "abbess"), ("f", None)),
    **dict.fromkeys(("viscountess", "marchioness"), ("f", None)),
    # A peer's widow: "the Dowager Viscountess Dalrymple".
    "dowager": ("f", True),
}
#: Titles of rank, never used with the plain ones: Sir William is not Mr. William Collins (but a
#: full name may bear both, once its man inherits: "Mr. Henry Baskerville" is Sir Henry).
RANKS = frozenset({"sir", "lady", "lord", "dame"})
PLAIN = frozenset({"mr", "mrs", "miss", "ms", "mister"})
#: A village's titles, written after "the" as often as not ("the Widow Douglas", "the Squire").
VILLAGE_TITLES = frozenset({"squire", "parson", "gaffer", "widow", "goody"})
#: Styles written after "the" before a person's name ("the Reverend Mr. Collins", "the
#: Honourable Miss Carteret", "the Dowager Viscountess Dalrymple").
STYLES_AFTER_THE = frozenset({"reverend", "rev", "honourable", "honorable", "hon", "dowager"})
#: Titles before which a single word is a surname ("Mr. Darcy", "Colonel Fitzwilliam"), never
#: a given name alone.
SURNAME_TITLES = frozenset(
    {"mr", "mister", "mrs", "ms", "messrs", "monsieur", "m", "madame", "mme", "herr", "frau"}
    | {"captain", "capt", "colonel", "col", "major", "general", "gen", "lieutenant", "lt"}
    | {"sergeant", "sgt", "doctor", "dr", "professor", "prof", "inspector", "admiral"}
    | {"cap'n", "cap\u2019n", "mester"}  # as a sailor says it: "Cap'n Silver"; "Mester Craven"
    | VILLAGE_TITLES
    # Ranks and offices nameparser does not list ("Ensign Nair" was a given name and a
    # surname, two given names apart from "Priya Nair"; "Superintendent Bell").
    | {"ensign", "midshipman", "cadet", "trooper", "constable", "marshal", "superintendent"}
    | {"consul", "matron", "headmaster", "headmistress", "farmer"}  # "Farmer Raikes"
    | {"citizen", "citoyen", "citizeness", "citoyenne"}
)
#: Titles of several people at once, a firm's or brothers' ("Messrs. Maw"): no one character.
PLURAL_TITLES = frozenset({"messrs", "mesdames", "mmes"})
#: Titles of rank that may go with the land or people ruled ("the Duke of Wellington", "the
#: Queen of the Field Mice"), where a person's own title does not ("Mr. Darcy of Pemberley").
DOMAIN_TITLES = frozenset(
    {"king", "queen", "prince", "princess", "duke", "duchess", "count", "countess", "earl"}
    | {"baron", "baroness", "lord", "lady", "emperor", "empress", "marquis", "bishop"}
)
#: Titles of monarchs, named by a given name alone ("King George"), never by a family's.
MONARCHS = frozenset({"king", "queen", "emperor", "empress", "tsar", "czar", "pope", "sultan"})
#: Titles that name a person by a given name only ("Sir William", "Dame Edith").
GIVEN_TITLES = frozenset({"sir", "dame"})
#: Words of kin a person is called by before a given name that nameparser does not list as
#: titles ("Cousin Charles": Charles, no family named Charles).
KIN_TITLES = frozenset({"cousin"})
SAINTS = frozenset({"st", "saint", "ste"})
HONORIFICS = frozenset(SEXED_TITLES) | SURNAME_TITLES | GIVEN_TITLES | KIN_TITLES
#: Honorifics said in place of a name ("her Ladyship", "his Lordship"): a title alone, no name.
ADDRESS_TITLES = frozenset({"ladyship", "lordship", "worship", "reverence", "eminence", "holiness"})

"""Words that open or end the names of places, which no library lists for names."""

from __future__ import annotations

#: The last words of names that are places, seldom a family's name: "Gull Point", "Cavendish
#: Square", "Gracechurch Street", and a house named for its family ("Lucas Lodge", "Baskerville
#: Hall", "Halsworth Court"; after a given name, a person's: "Anne Hall"). "Hill", "Wood",
#: "Marsh" or "Sands" are as often people's ("Tobin Marsh").
PLACE_HEADS = frozenset(
    {"street", "lane", "square", "road", "avenue", "terrace", "crescent", "point", "bay"}
    | {"cape", "harbour", "harbor", "cove", "island", "isle", "abbey", "cathedral", "chapel"}
    | {"inn", "tavern", "castle", "palace", "park", "river", "creek", "mountain", "valley"}
    | {"gardens", "yard", "wharf", "quay", "pier", "city", "town", "village", "county"}
    | {"house", "hall", "lodge", "manor", "grange", "cottage", "parsonage", "rectory", "court"}
    | {"head", "moor", "heath", "fell", "tor", "fen", "scar", "farm"}
    | {"ford", "bridge", "mill", "tower", "keep", "hole"}
    | {"boulevard", "plaza", "highway", "alley", "hotel", "station", "water", "villa"}
)
#: Place heads no family's name is: a Scots river ("Allan Water") or a house named as English
#: villas and cottages are ("Cissie Villa", "Rose Cottage") is a place after a given name too.
WATERS = frozenset({"water", "river", "villa", "cottage"})

#: The first words of names that are places ("Villa Lavenza", "Mont Blanc", "Cape Horn", "Camp
#: Laurence"), never a given name before a family's: a place named for a family is still a place.
PLACE_LEADS = frozenset(
    {"villa", "mount", "mont", "monte", "lake", "loch", "lac", "fort", "port", "cape", "camp"}
    | {"hotel", "castle", "chateau", "ch\u00e2teau", "palazzo", "piazza", "rue", "glen"}
    | {"island", "isle"}
)

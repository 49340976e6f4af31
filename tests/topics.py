"""Memories on five subjects of five things each, eight notes a thing: a namespace the map
shows as 25 regions of near-identical notes (the web view's map tests)."""

from __future__ import annotations

#: A namespace of five subjects for the map to show as regions.
SUBJECTS = {
    "garden": ["tomatoes", "the compost heap", "the apple tree", "slugs", "the greenhouse"],
    "kitchen": ["sourdough", "the oven", "a lentil soup", "the spice rack", "fresh pasta"],
    "trains": [
        "the night train",
        "platform four",
        "a delayed connection",
        "a rail pass",
        "sleeper cabins",
    ],
    "money": [
        "the tax return",
        "the savings account",
        "the electricity bill",
        "the mortgage",
        "a budget",
    ],
    "music": [
        "the piano lesson",
        "a jazz record",
        "the choir",
        "guitar strings",
        "the concert hall",
    ],
}
TOPICS = [
    f"A note about {thing} ({subject}), number {n}."
    for subject, things in SUBJECTS.items()
    for thing in things
    for n in range(8)
]

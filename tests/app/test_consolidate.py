"""`consolidate` on a real store: near-duplicates made one, nothing written lost, no chains."""

from __future__ import annotations

import json

import pytest

from loci.app import App
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.memory.conversations.messages import parse_messages
from loci.toolsets.memory.lifecycle.duplicates import (
    groups_of,
    likeness,
    merged_text,
    prepare,
    sentences,
)
from loci.toolsets.memory.models import MemoryDraft
from tests.cli_runner import run_loci

VAULT = "The deploy key lives in the vault."
ELSEWHERE = [
    "Tomatoes grow best on the south balcony.",
    "The ferry to the island leaves at nine every morning.",
    "Ana prefers tea to coffee in the afternoon.",
]


def remember(app: App, content: str, **extra: object) -> str:
    return app.memory.remember(MemoryDraft(content=content, **extra)).id  # type: ignore[arg-type]


def test_merge_keeps_every_sentence_tag_and_the_highest_importance(app: App) -> None:
    first = remember(app, VAULT, tags=["ops"], importance=0.4, metadata={"team": "infra"})
    second = remember(app, "the deploy key lives in the vault", tags=["keys"], importance=0.8)
    third = remember(
        app, "The deploy key lives in the vault. Rotate it monthly.", metadata={"by": "ana"}
    )
    others = [remember(app, text) for text in ELSEWHERE]
    done = app.consolidation.consolidate()
    assert done.groups_found == 1 and done.memories_affected == 3 and done.memories_after == 4
    group = done.consolidated[0]
    assert group.kept.id == second  # the most important survives
    assert {m.id for m in group.merged_from} == {first, third}
    kept = app.memory.get(second)
    assert "Rotate it monthly." in kept.content and kept.content.count("vault") == 1
    assert set(kept.tags) == {"ops", "keys"} and kept.importance == 0.8
    assert kept.metadata == {"team": "infra", "by": "ana"}
    assert app.memory.get(first).id == second and app.memory.get(third).id == second
    assert all(app.memory.get(i).id == i for i in others)
    found = app.memory.recall("how often is the deploy key rotated?", limit=1)
    assert found.memories[0].id == second  # vectors and keywords follow the merged text
    assert app.memory.nearby(first, limit=2).reference.id == second  # old ids work everywhere


def test_keep_newest_and_oldest_choose_by_age_and_dry_run_changes_nothing(app: App) -> None:
    older = remember(app, VAULT)
    newer = remember(app, VAULT.upper())
    for text in ELSEWHERE:
        remember(app, text)
    heard: list[tuple[int, int]] = []
    preview = app.consolidation.consolidate(
        strategy="keep_newest", dry_run=True, progress=lambda *at: heard.append(at)
    )
    assert heard[-1] == (5, 5)
    assert preview.dry_run and preview.memories_after == 4
    assert preview.consolidated[0].kept.id == newer
    assert app.memory.get(older).id == older  # nothing changed
    done = app.consolidation.consolidate(strategy="keep_oldest")
    assert done.consolidated[0].kept.id == older
    assert app.memory.get(newer).content == VAULT
    again = app.consolidation.consolidate(strategy="keep_oldest")
    assert again.groups_found == 0 and again.memories_after == 4


def test_paraphrases_of_different_facts_and_conversation_turns_stay(app: App) -> None:
    remember(app, "Joanna is grateful for Nate's support and encouragement.")
    remember(app, "Joanna appreciates Nate's kind words and encouragement.")
    turns = [
        {"speaker": "Ana", "content": "ok sounds good", "timestamp": f"2026-01-0{day}"}
        for day in (1, 2)
    ]
    app.conversations.remember_conversation(parse_messages(turns), "default", "chat")
    app.memory.remember(MemoryDraft(content="ok sounds good", namespace="notes"))
    app.memory.remember(MemoryDraft(content="OK, sounds good!", namespace="notes"))
    done = app.consolidation.consolidate(0.85)
    merged = [m.content for g in done.consolidated for m in [g.kept, *g.merged_from]]
    assert merged == ["ok sounds good", "OK, sounds good!"]  # only the two notes


def test_a_changed_word_and_reordered_sentences_are_duplicates(app: App) -> None:
    remember(app, "Caroline moved to Berlin in the spring of 2019 with her two cats.")
    remember(app, "Caroline moved to Berlin in the summer of 2019 with her two cats.")
    remember(app, "The kiln is fired on Fridays. Glazes dry overnight.")
    remember(app, "Glazes dry overnight. The kiln is fired on Fridays.")
    done = app.consolidation.consolidate(dry_run=True)
    assert done.groups_found == 2


def test_groups_never_chain() -> None:
    alike = {frozenset(p) for p in [(1, 2), (2, 3), (4, 5)]}
    groups = groups_of(
        [(1, 2, 0.95), (2, 3, 0.97), (4, 5, 0.92)], lambda a, b: frozenset((a, b)) in alike
    )
    assert sorted(map(sorted, groups)) == [[2, 3], [4, 5]]  # 1 is not like 3: left alone


def test_texts_merge_by_sentence_and_likeness_needs_shared_words() -> None:
    assert sentences("One. Two! Three? (Four.) Five") == [
        "One.",
        "Two!",
        "Three?",
        "(Four.)",
        "Five",
    ]
    merged = merged_text(["A cat sat. It purred.", "a cat sat!  It slept.", "It purred"])
    assert merged == "A cat sat. It purred. It slept."
    assert likeness(0.95, prepare("Ana likes tea"), prepare("Ben hates coffee today")) == 0.0
    same = likeness(0.5, prepare("The deploy key is here"), prepare("the deploy key is here!"))
    assert same == 1.0
    spelled = likeness(0.5, prepare("Ana moved in May 2019"), prepare("Ana moved in June 2019"))
    assert 0.7 < spelled < 1.0


def test_consolidate_refuses_bad_input(app: App) -> None:
    remember(app, VAULT)
    for bad in (
        {"strategy": "newest"},
        {"similarity_threshold": 0.3},
        {"similarity_threshold": 1.5},
        {"namespace": "../x"},
    ):
        with pytest.raises(InvalidInputError):
            app.consolidation.consolidate(**bad)  # type: ignore[arg-type]
    with pytest.raises(NotFoundError):
        app.consolidation.consolidate(namespace="missing")
    empty = app.consolidation.consolidate(namespace="default")
    assert empty.groups_found == 0 and empty.memories_after == 1


def test_cli_consolidate(app: App) -> None:
    remember(app, VAULT)
    remember(app, VAULT.lower())
    shown = run_loci(app.settings.home, "consolidate", "--dry-run")
    assert shown.returncode == 0 and "would merge 2 memories in 1 groups" in shown.stdout
    done = json.loads(run_loci(app.settings.home, "consolidate", "--json").stdout)
    assert done["groups_found"] == 1 and done["memories_after"] == 1

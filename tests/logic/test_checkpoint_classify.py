"""Checkpoint classification (against a labelled set) and budget enforcement."""

import json
import re
from pathlib import Path

import pytest

from loci.toolsets.checkpoints.budget import estimate_tokens, extract_sentences, fit
from loci.toolsets.checkpoints.classify import Tier, classify, tier_of

FIXTURES = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "checkpoint_contexts.json").read_text("utf-8")
)


def test_labelled_contexts_are_classified_accurately(capsys):
    right, wrong = 0, []
    for example in FIXTURES:
        found = classify(example["context"])
        for path, expected in example["expected"].items():
            tier = tier_of(path, found).value
            if tier == expected:
                right += 1
            else:
                wrong.append((example["name"], path, expected, tier))
    accuracy = right / (right + len(wrong))
    with capsys.disabled():
        print(f"\nclassification accuracy on {right + len(wrong)} labelled keys: {accuracy:.3f}")
    assert accuracy >= 0.95, wrong


@pytest.mark.parametrize(
    ("key", "value", "tier"),
    [
        ("userGoal", "ship it", Tier.CRITICAL),
        ("design_decisions", [], Tier.CRITICAL),
        ("error_log", "x", Tier.EPHEMERAL),
        ("goal_timestamp", "x", Tier.EPHEMERAL),
        ("raw_results", [], Tier.EPHEMERAL),
        ("next_steps", [], Tier.IMPORTANT),
        ("research_notes", "x", Tier.USEFUL),
        ("whatever", "2026-11-22T10:00:00Z", Tier.EPHEMERAL),
        ("whatever", "\n".join(f"2026-11-22 10:00:0{i} INFO ok" for i in range(6)), Tier.EPHEMERAL),
        ("whatever", "word " * 1000, Tier.USEFUL),
        ("whatever", list(range(100)), Tier.USEFUL),
        ("whatever", "short", Tier.IMPORTANT),
    ],
)
def test_names_and_shapes_decide_the_tier(key, value, tier):
    assert classify({key: value})[key].tier is tier


def test_nested_keys_are_classified_and_marks_override():
    context = {"plan": {"steps": [1], "debug_log": "x"}, "goal": {"note": "n"}, "notes": "x"}
    found = classify(context, {"notes": Tier.CRITICAL, "plan.steps": Tier.EPHEMERAL})
    assert found["plan.debug_log"].tier is Tier.EPHEMERAL
    assert tier_of("goal.note", found) is Tier.CRITICAL  # inside a critical key
    assert (found["notes"].tier, found["notes"].reason) == (Tier.CRITICAL, "marked")
    assert found["plan.steps"].tier is Tier.EPHEMERAL


def sentences(count, topic="the cache"):
    return " ".join(
        f"Sentence {n} says something about {topic} and its keys." for n in range(count)
    )


def test_a_context_within_budget_is_left_alone():
    context = {"goal": "ship", "notes": "short"}
    kept, report = fit(context, classify(context), 1000)
    assert kept is context and not report.applied and report.dropped == []


def test_over_budget_drops_ephemeral_then_shortens_useful_and_keeps_critical():
    goal = sentences(40, "the goal")
    context = {
        "goal": goal,
        "plan": {"steps": ["step one", "step two"], "debug_log": "x" * 4000},
        "analysis": sentences(300),
        "timestamp": "2026-11-22T10:00:00Z",
    }
    budget = estimate_tokens(goal) + 400
    kept, report = fit(context, classify(context), budget)
    assert report.applied and not report.over_budget
    assert report.tokens_after <= budget < report.tokens_before
    assert sorted(report.dropped) == ["plan.debug_log", "timestamp"]
    assert [s.path for s in report.shortened] == ["analysis"]
    assert kept["goal"] == goal and kept["plan"]["steps"] == ["step one", "step two"]
    assert "debug_log" in context["plan"]  # the caller's object is untouched


def test_shortening_keeps_whole_sentences_in_order():
    text = sentences(50)
    short = extract_sentences(text, 400)
    assert 0 < len(short.encode()) <= 400
    originals = re.split(r"(?<=[.!?])\s+", text)
    kept = re.split(r"(?<=[.!?])\s+", short)
    assert all(sentence in originals for sentence in kept)
    assert [originals.index(s) for s in kept] == sorted(originals.index(s) for s in kept)
    assert kept[0] == originals[0]  # the opening sentence ranks first


def test_important_is_cut_only_when_useful_is_not_enough():
    context = {
        "plan": [f"step {n}: do the thing number {n}" for n in range(200)],
        "notes": "n" * 40,
    }
    kept, report = fit(context, classify(context), 300)
    assert {s.path for s in report.shortened} >= {"plan"}
    assert kept["plan"][0] == "step 0: do the thing number 0"  # lists keep whole items
    assert kept["plan"][-1] == "step 199: do the thing number 199"
    assert all(item in context["plan"] for item in kept["plan"])


def test_a_context_whose_critical_part_exceeds_the_budget_is_kept_whole():
    context = {
        "goal": sentences(200, "the goal"),
        "workflowId": "wf-42",
        "notes": sentences(50),
        "findings": ["the cache is cold", "the index is stale"],
        "debug_log": "x" * 4000,
    }
    kept, report = fit(context, classify(context), 100)
    assert kept == context  # nothing emptied, nothing dropped: not even the EPHEMERAL log
    assert report.over_budget and report.critical_over_budget and not report.applied
    assert report.dropped == [] and report.shortened == []


def test_a_part_shortened_to_nothing_is_removed_and_listed():
    one_long_sentence = "word " * 2000  # no sentence boundary: no whole sentence fits
    context = {"goal": "ship it", "analysis": one_long_sentence, "counts": {"a": 1}}
    kept, report = fit(context, classify(context), 50)
    assert "analysis" not in kept and report.dropped == ["analysis"]
    assert kept["goal"] == "ship it" and not report.critical_over_budget
    assert not any(value in ("", [], {}) for value in kept.values())

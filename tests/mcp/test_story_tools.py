"""The story toolset through the MCP client: the design's integration scenarios."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp import Client
from tests.mcp.conftest import Connect
from tests.results import tool_error
from tests.storytext import filler

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")
SMALL = {"max_tokens": 1000, "chunk_size": 200}
VOSS = (
    "Captain Mira Voss stepped off the ferry. Mira Voss was a one-eyed smuggler with a silver "
    "tooth and a laugh like gravel, and she carried a brass compass that never pointed north."
)


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def write(client: Client, session: str, text: str, **extra: Any) -> dict[str, Any]:
    return await call(
        client,
        "continue_story",
        session_id=session,
        user_input="",
        assistant_response=text,
        **extra,
    )


async def test_pressure_relief_cycle_keeps_the_window_under_its_maximum(connect: Connect) -> None:
    async with connect() as client:
        results = [await write(client, "tale", filler(0), settings=SMALL)]
        results += [await write(client, "tale", filler(seed)) for seed in range(1, 30)]
        stats = await call(client, "get_context_stats", session_id="tale")
    assert all(r["window_tokens"] <= SMALL["max_tokens"] for r in results)
    relieved = [r for r in results if r["relieved"]]
    assert len(relieved) >= 3 and stats["reliefs"] == len(relieved)
    # Relief archives down to (threshold - relief) of the maximum: 40% by default.
    assert all(r["window_tokens"] <= 400 for r in relieved)
    assert all(chunk["tokens"] <= SMALL["chunk_size"] for r in relieved for chunk in r["archived"])
    assert stats["archived_chunks"] == sum(len(r["archived"]) for r in relieved)
    assert stats["interactions"] == 30 and stats["settings"]["max_tokens"] == 1000
    history = stats["relief_history"]
    assert all(h["tokens_after"] < h["tokens_before"] for h in history)


async def test_a_character_pushed_out_by_relief_comes_back_with_the_same_traits(
    connect: Connect,
) -> None:
    async with connect() as client:
        await write(client, "voss", VOSS, settings=SMALL)
        for seed in range(12):
            await write(client, "voss", filler(seed))
        await write(client, "voss", "Mira Voss counted the coins twice.")
        window = await client.read_resource("story://voss/current-context")
        info = await call(client, "get_character_info", session_id="voss", character_name="Voss")
        context = await call(
            client,
            "get_story_context",
            session_id="voss",
            current_input="Mira Voss sails at dawn.",
            max_tokens=3000,
        )
    assert "silver tooth" not in json.loads(window.contents[0].text)["text"]  # archived
    assert info["kind"] == "character" and info["confirmed"]
    assert "one-eyed smuggler" in info["description"]
    assert "Captain Mira Voss" in info["aliases"] or "Mira Voss" in info["aliases"]
    assert "silver tooth" in context["text"]
    assert context["tokens"] <= 3000
    assert {p["kind"] for p in context["parts"]} >= {"recent", "entity"}


async def test_plot_threads_advance_across_reliefs_and_resolve(connect: Connect) -> None:
    async with connect() as client:
        await write(client, "heist", filler(100), settings=SMALL)
        opened = await call(
            client,
            "update_plot_thread",
            session_id="heist",
            name="The stolen compass",
            action="open",
            note="The compass vanishes from the inn.",
            entities=["Mira Voss"],
        )
        for round_number in range(3):
            for seed in range(5):
                await write(client, "heist", filler(200 + 10 * round_number + seed))
            await call(
                client,
                "update_plot_thread",
                session_id="heist",
                name="The stolen compass",
                action="advance",
                note=f"Clue {round_number + 1} found.",
            )
        resolved = await call(
            client,
            "update_plot_thread",
            session_id="heist",
            name="The stolen compass",
            action="resolve",
            note="The ferryman had it all along.",
        )
        threads = await call(client, "get_plot_threads", session_id="heist")
        stats = await call(client, "get_context_stats", session_id="heist")
    assert opened["status"] == "active" and resolved["status"] == "resolved"
    assert stats["reliefs"] >= 2
    assert threads["active"] == [] and [t["name"] for t in threads["resolved"]] == [
        "The stolen compass"
    ]
    positions = [e["position"] for e in resolved["events"]]
    assert positions == sorted(positions) and positions[0] < positions[-1]
    assert [e["note"] for e in resolved["events"]][1:4] == [
        "Clue 1 found.",
        "Clue 2 found.",
        "Clue 3 found.",
    ]


async def test_a_detail_is_found_after_many_reliefs(connect: Connect) -> None:
    detail = "The lighthouse keeper hid the ledger inside a hollow copper kettle."
    async with connect() as client:
        await write(client, "coast", filler(300), settings=SMALL)
        await write(client, "coast", detail)
        for seed in range(301, 340):
            await write(client, "coast", filler(seed))
        asked = {"session_id": "coast", "query": "Where did the lighthouse keeper hide the ledger?"}
        found = await call(client, "search_story_memory", **asked, max_results=3)
        whole = await call(
            client, "search_story_memory", **asked, max_results=3, include_chunk=True
        )
        context = await call(
            client,
            "get_story_context",
            session_id="coast",
            current_input="Where did the lighthouse keeper hide the ledger?",
        )
        stats = await call(client, "get_context_stats", session_id="coast")
    assert stats["reliefs"] >= 5
    best = found["hits"][0]
    assert best["where"] == "archive" and detail in best["passage"] and best["chunk"] is None
    assert len(best["passage"]) <= 480  # the answer, not its whole chunk
    assert detail in whole["hits"][0]["chunk"]
    assert set(best["signals"]) == {"semantic", "entity", "recency", "graph"}
    assert detail in context["text"]


async def test_sessions_are_listed_and_exposed_as_resources(connect: Connect) -> None:
    async with connect() as client:
        await write(client, "one", "Ada Quill wrote the first line. Ada Quill smiled.")
        await write(client, "two", "A second story begins.")
        listed = await call(client, "list_story_sessions")
        templates = await client.list_resource_templates()
        characters = await client.read_resource("story://one/characters")
        stats = await client.read_resource("story://one/memory-stats")
    assert [s["session_id"] for s in listed["sessions"]] == ["two", "one"]
    uris = {t.uri_template for t in templates.resource_templates}
    assert {
        "story://{session_id}/current-context",
        "story://{session_id}/characters",
        "story://{session_id}/memory-stats",
    } <= uris
    names = [e["name"] for e in json.loads(characters.contents[0].text)["entities"]]
    assert names == ["Ada Quill"]
    assert json.loads(stats.contents[0].text)["interactions"] == 1


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("get_story_context", {"session_id": "nope", "current_input": "x"}, None),
        ("get_character_info", {"session_id": "nope", "character_name": "X"}, None),
        (
            "continue_story",
            {"session_id": "s", "user_input": " ", "assistant_response": ""},
            "assistant_response",
        ),
        (
            "continue_story",
            {"session_id": "s", "user_input": "", "assistant_response": "x" * 10_000_000},
            "assistant_response",
        ),
        (
            "continue_story",
            {"session_id": "../etc", "user_input": "", "assistant_response": "x"},
            "session_id",
        ),
        (
            "continue_story",
            {"session_id": "a/b", "user_input": "", "assistant_response": "x"},
            "session_id",
        ),
        (
            "continue_story",
            {
                "session_id": "s",
                "user_input": "",
                "assistant_response": "x",
                "settings": {"max_tokens": 5},
            },
            None,
        ),
        (
            "continue_story",
            {
                "session_id": "s",
                "user_input": "",
                "assistant_response": "x",
                "settings": {"relief_percentage": 0.85},
            },
            "settings",
        ),
        ("search_story_memory", {"session_id": "s", "query": ""}, None),
        ("update_plot_thread", {"session_id": "nope", "name": "t", "action": "open"}, None),
    ],
)
async def test_bad_input_is_refused_and_changes_nothing(
    connect: Connect, tool: str, arguments: dict[str, Any], field: str | None
) -> None:
    async with connect() as client:
        result = await client.call_tool(tool, arguments)
        listed = await call(client, "list_story_sessions")
    error = tool_error(result)
    assert error["type"] in {"invalid_input", "not_found"}
    if field is not None:
        fields = [error["details"].get("field")] + [
            e["field"] for e in error["details"].get("errors", [])
        ]
        assert field in fields, error
    assert listed["sessions"] == []


async def test_the_writers_prompts_are_never_shown_as_prose(connect: Connect) -> None:
    prompt = "Write the scene where Mira Voss finds the lighthouse ledger."
    async with connect() as client:
        await call(
            client,
            "continue_story",
            session_id="prompts",
            user_input=prompt,
            assistant_response="Mira Voss climbed the stair and found the ledger under a slate.",
        )
        context = await call(
            client,
            "get_story_context",
            session_id="prompts",
            current_input="What did Mira Voss find in the lighthouse?",
        )
        found = await call(
            client, "search_story_memory", session_id="prompts", query="lighthouse ledger scene"
        )
        window = await client.read_resource("story://prompts/current-context")
    assert f"> Writer's prompt: {prompt}" in context["text"]
    assert f"\n{prompt}" not in context["text"] and not context["text"].startswith(prompt)
    assert f"> Writer's prompt: {prompt}" in json.loads(window.contents[0].text)["text"]
    prompts = [hit for hit in found["hits"] if hit["prompt"]]
    assert all(hit["passage"].startswith("> Writer's prompt: ") for hit in prompts)


async def test_the_writer_curates_the_cast_and_later_text_never_undoes_it(
    connect: Connect,
) -> None:
    text = (
        'Tobias Reed mended the nets, and Tobias Reed laughed. "Tide," said Pim, and Pim '
        "whistled as he worked. Mira Voss rowed in from Port Elder, and Mira Voss waved."
    )
    async with connect() as client:
        await write(client, "cast", text)
        merged = await call(
            client,
            "correct_character",
            session_id="cast",
            action="merge",
            name="Tobias Reed",
            other="Pim",
        )
        a_ship = await call(
            client,
            "correct_character",
            session_id="cast",
            action="kind",
            name="Mira Voss",
            other="other",
        )
        for _ in range(3):  # new names arrive: the cast is worked out again
            await write(client, "cast", text + " Ada Quill sang, and Ada Quill smiled.")
        pim = await call(client, "get_character_info", session_id="cast", character_name="Pim")
        characters = await client.read_resource("story://cast/characters")
    assert {"Tobias Reed", "Pim"} <= set(merged["aliases"]) and merged["corrections"]
    assert a_ship["kind"] == "other"
    assert pim["name"] == "Tobias Reed" and any("merged" in c for c in pim["corrections"])
    listed = [e["name"] for e in json.loads(characters.contents[0].text)["entities"]]
    assert "Mira Voss" not in listed and {"Tobias Reed", "Ada Quill"} <= set(listed)


async def test_a_longer_name_added_and_taken_back_counts_each_mention_once(
    connect: Connect,
) -> None:
    text = (
        "Gerald Dunmore and Edward Dunmore came up from the harbour. No one was a Dunmore "
        'there but Gerald Dunmore. "Young Dunmore went out twice," said Greaves.'
    )
    async with connect() as client:
        for _ in range(3):
            await write(client, "villa", text)
        before = await call(
            client, "get_character_info", session_id="villa", character_name="Dunmore"
        )
        await call(
            client,
            "correct_character",
            session_id="villa",
            action="alias",
            name="Edward Dunmore",
            other="Young Dunmore",
        )
        held = await call(
            client, "get_character_info", session_id="villa", character_name="Dunmore"
        )
        await call(client, "undo_cast_correction", session_id="villa")
        back = await call(
            client, "get_character_info", session_id="villa", character_name="Dunmore"
        )
    assert held["mentions"] == before["mentions"] - 3
    assert back["mentions"] == before["mentions"]
    assert back["relationships"] == before["relationships"]


@pytest.mark.parametrize(
    ("arguments", "kind", "field"),
    [
        ({"action": "merge", "name": "Tobias Reed", "other": "Nobody"}, "not_found", None),
        ({"action": "merge", "name": "Nobody", "other": "Pim"}, "not_found", None),
        ({"action": "kind", "name": "Pim", "other": "ghost"}, "invalid_input", "other"),
        ({"action": "split", "name": "Pim", "other": "Tobias Reed"}, "invalid_input", "other"),
        ({"action": "explode", "name": "Pim", "other": "Tobias Reed"}, "invalid_input", None),
        ({"action": "alias", "name": "Pim", "other": "x" * 500}, "invalid_input", None),
        ({"action": "alias", "name": "Pim", "other": ""}, "invalid_input", None),
        ({"action": "alias", "name": "Pim", "other": "Tobias Reed"}, "conflict", "other"),
    ],
)
async def test_a_bad_correction_is_refused_and_changes_nothing(
    connect: Connect, arguments: dict[str, str], kind: str, field: str | None
) -> None:
    async with connect() as client:
        await write(client, "bad", 'Tobias Reed laughed. "Tide," said Pim, and Tobias Reed waved.')
        before = await call(client, "get_character_info", session_id="bad", character_name="Pim")
        result = await client.call_tool("correct_character", {"session_id": "bad", **arguments})
        after = await call(client, "get_character_info", session_id="bad", character_name="Pim")
        missing = await client.call_tool(
            "correct_character",
            {"session_id": "../etc", "action": "merge", "name": "Pim", "other": "Tobias Reed"},
        )
    error = tool_error(result)
    assert error["type"] == kind, error
    if field is not None:
        assert error["details"].get("field") == field
    assert tool_error(missing)["type"] == "invalid_input"
    assert after == before

"""Arguments are taken as the input schemas say: unknown names and wrong JSON types are
refused with `invalid_input` naming the field, and nothing changes."""

from __future__ import annotations

import pytest

from tests.mcp.conftest import Connect
from tests.results import tool_error

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")
UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


async def stored(client) -> int:
    result = await client.call_tool("stats", {})
    return result.structured_content["total_memories"]


def fields(error: dict) -> set[str]:
    return {problem["field"] for problem in error["details"]["errors"]}


async def test_every_tool_refuses_an_unknown_argument(connect: Connect) -> None:
    async with connect() as client:
        await client.call_tool("remember", {"content": "kept"})
        tools = (await client.list_tools()).tools
        assert len(tools) >= 20
        for tool in tools:
            assert tool.input_schema.get("additionalProperties") is False, tool.name
            result = await client.call_tool(tool.name, {"namespce": "typo"})
            error = tool_error(result)
            assert error["type"] == "invalid_input", tool.name
            assert "namespce" in fields(error), (tool.name, error)
            assert "not an argument" in error["message"], error["message"]
        assert await stored(client) == 1


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("recall", {"query": "x", "limit": "1"}, "limit"),
        ("recall", {"query": "x", "limit": 2.0}, "limit"),
        ("recall", {"query": 5}, "query"),
        ("remember", {"content": "x", "importance": True}, "importance"),
        ("remember", {"content": "x", "importance": "0.9"}, "importance"),
        ("remember", {"content": "x", "tags": '["a"]'}, "tags"),
        ("remember", {"content": "x", "metadata": '{"a": 1}'}, "metadata"),
        ("nearby", {"memory_id": UNKNOWN_ID, "exclude_self": "false"}, "exclude_self"),
        ("forget", {"memory_id": UNKNOWN_ID, "dry_run": 0}, "dry_run"),
        ("export_memories", {"offset": "0"}, "offset"),
        ("remember_batch", {"memories": [{"content": "x"}], "namespace": 3}, "namespace"),
        ("workflow_checkpoint_list", {"sessionId": "s-1", "limit": "5"}, "limit"),
        ("context_history", {"project_id": "p-1", "file_type": "bugs", "limit": True}, "limit"),
    ],
)
async def test_wrong_json_types_are_refused(
    connect: Connect, tool: str, arguments: dict, field: str
) -> None:
    async with connect() as client:
        error = tool_error(await client.call_tool(tool, arguments))
        assert error["type"] == "invalid_input"
        assert field in fields(error), error
        assert await stored(client) == 0


async def test_integers_are_numbers_and_whole_numbers_stay_valid(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("remember", {"content": "x", "importance": 1})
        assert not result.is_error
        recalled = await client.call_tool("recall", {"query": "x", "limit": 3})
        assert recalled.structured_content["memories"][0]["importance"] == 1.0


async def test_descriptions_carry_no_docstring_indentation(connect: Connect) -> None:
    async with connect() as client:
        for tool in (await client.list_tools()).tools:
            assert tool.description
            assert "\n " not in tool.description, (tool.name, tool.description)


async def test_a_batch_stores_its_valid_items_and_lists_the_others(connect: Connect) -> None:
    batch = [
        {"content": "first good item"},
        {"content": ""},
        {"content": "too important", "importance": 1.5},
        {"content": "bad namespace", "namespace": "../etc"},
        {"content": "second good item", "tags": ["t"]},
        "not an object",
        {"content": "unknown field", "colour": "red"},
        {"content": "boolean importance", "importance": True},
    ]
    async with connect() as client:
        result = await client.call_tool("remember_batch", {"memories": batch})
        assert not result.is_error
        outcome = result.structured_content
        assert outcome["stored"] == 2 and len(outcome["ids"]) == 2
        assert [error["index"] for error in outcome["errors"]] == [1, 2, 3, 5, 6, 7]
        assert all(error["type"] == "invalid_input" for error in outcome["errors"])
        assert "colour" in outcome["errors"][4]["message"]
        assert "importance" in outcome["errors"][5]["message"]
        assert await stored(client) == 2
        schema = next(t for t in (await client.list_tools()).tools if t.name == "remember_batch")
        item = schema.input_schema["properties"]["memories"]["items"]
        assert item["additionalProperties"] is False and "content" in item["required"]


async def test_an_unknown_tool_answers_the_documented_error_shape(connect: Connect) -> None:
    async with connect() as client:
        for name in ("remembr", "../etc/passwd", "x" * 5_000):
            error = tool_error(await client.call_tool(name, {"content": "kept?"}))
            assert error["type"] == "not_found", error
            assert "tools/list" in error["message"]
            assert len(error["details"]["tool"]) <= 103  # a long name is not echoed whole
        assert await stored(client) == 0


@pytest.mark.parametrize(
    ("tool", "field", "limit", "setting"),
    [
        ("remember", "content", 65_536, "LOCI_MAX_CONTENT_BYTES"),
        ("recall", "query", 65_536, "LOCI_MAX_CONTENT_BYTES"),
        ("extract", "text", 4 * 65_536, "4 x LOCI_MAX_CONTENT_BYTES"),
        ("get_story_context", "current_input", 262_144, "LOCI_STORY_MAX_INPUT_BYTES"),
        ("search_story_memory", "query", 16_384, None),
    ],
)
async def test_every_limit_error_names_the_limit_it_applied(
    connect: Connect, tool: str, field: str, limit: int, setting: str | None
) -> None:
    arguments = {field: "word " * (limit // 5 + 1)}
    if tool.endswith("story_context") or tool.endswith("story_memory"):
        arguments["session_id"] = "s"
    async with connect() as client:
        if "session_id" in arguments:
            await client.call_tool(
                "continue_story", {"session_id": "s", "user_input": "", "assistant_response": "x"}
            )
        error = tool_error(await client.call_tool(tool, arguments))
    assert error["type"] == "invalid_input", error
    assert error["details"]["max_bytes"] == limit
    assert f"the limit is {limit}" in error["message"]
    if setting is None:
        assert "LOCI_" not in error["message"]  # a fixed limit names no setting
    else:
        assert f"({setting})" in error["message"]

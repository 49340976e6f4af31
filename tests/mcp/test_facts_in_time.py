"""Facts that change, through the MCP client on both engines: validity, supersede,
invalidate, "as of" recall, contradictions flagged at write, dismissals and history."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp import Client
from tests.mcp.conftest import Connect

pytestmark = pytest.mark.anyio

ENGINES = ("sqlite", "postgresql")


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool's structured answer (the call must succeed)."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def refused(client: Client, tool: str, **arguments: Any) -> str:
    """The error text of a call that must fail."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, (tool, arguments)
    return json.dumps([block.model_dump() for block in result.content])


async def recall_ids(client: Client, query: str, **arguments: Any) -> list[str]:
    found = await call(client, "recall", query=query, namespace="dana", **arguments)
    return [memory["id"] for memory in found["memories"]]


async def test_validity_is_stored_and_shown(connect: Connect) -> None:
    async with connect() as client:
        given = await call(
            client,
            "remember",
            content="Dana lives in Berlin.",
            namespace="dana",
            valid_from="2022-03-01",
        )
        assert given["valid_from"] == "2022-03-01T00:00:00.000000Z" and given["conflicts"] == []
        happened = await call(
            client, "remember", content="Dana ran a marathon.", namespace="dana",
            occurred_at="2023-05-05T09:00:00Z",
        )  # fmt: skip
        assert happened["valid_from"] == "2023-05-05T09:00:00.000000Z"
        found = await call(client, "recall", query="Where does Dana live?", namespace="dana")
        first = found["memories"][0]
        assert first["id"] == given["id"] and first["valid_until"] is None
        assert first["superseded_by"] is None and first["supersedes"] == []


async def test_a_contradiction_is_flagged_and_the_newer_ranks_first(connect: Connect) -> None:
    async with connect() as client:
        old = await call(
            client, "remember", content="Dana lives in Berlin.", namespace="dana",
            valid_from="2022-03-01",
        )  # fmt: skip
        await call(
            client, "remember", content="Dana works as a nurse.", namespace="dana",
            valid_from="2022-06-01",
        )  # fmt: skip
        new = await call(
            client, "remember", content="Dana moved to Lisbon in September.", namespace="dana",
            valid_from="2023-09-15",
        )  # fmt: skip
        assert [c["id"] for c in new["conflicts"]] == [old["id"]]
        assert "Berlin".lower() in new["conflicts"][0]["reason"].lower()
        ranked = await recall_ids(client, "Where does Dana live? Berlin")
        assert ranked.index(new["id"]) < ranked.index(old["id"])  # both kept, newer first
        found = await call(client, "recall", query="Dana Berlin", namespace="dana")
        disputed = {m["id"]: m["disputed_with"] for m in found["memories"]}
        assert disputed[old["id"]] == [new["id"]] and disputed[new["id"]] == [old["id"]]
        listed = await client.read_resource("memory://conflicts")
        pairs = json.loads(listed.contents[0].text)["conflicts"]  # type: ignore[union-attr]
        assert [(p["older"]["id"], p["newer"]["id"]) for p in pairs] == [(old["id"], new["id"])]
        dismissed = await call(client, "dismiss_conflict", first_id=old["id"], second_id=new["id"])
        assert dismissed["was_flagged"] is True
        listed = await client.read_resource("memory://conflicts/dana")
        assert json.loads(listed.contents[0].text)["conflicts"] == []  # type: ignore[union-attr]


async def test_what_is_not_a_contradiction_is_not_flagged(connect: Connect) -> None:
    async with connect() as client:
        await call(client, "remember", content="Priya lives in Toronto.", namespace="dana")
        for text in (
            "Priya is in Rome for two weeks on holiday.",  # temporary
            "Priya will move to Montreal next year.",  # a plan
            "Sam lives in Chicago.",  # another person
            "Priya works at Shopify.",  # another attribute
            "Priya also speaks Spanish.",  # an addition
        ):
            written = await call(client, "remember", content=text, namespace="dana")
            assert written["conflicts"] == [], text


async def test_on_conflict_supersede_and_keep(connect: Connect) -> None:
    async with connect() as client:
        old = await call(
            client, "remember", content="Tom drinks coffee every morning.", namespace="dana",
            valid_from="2022-01-01",
        )  # fmt: skip
        new = await call(
            client, "remember", content="Tom no longer drinks coffee.", namespace="dana",
            valid_from="2024-01-01", on_conflict="supersede",
        )  # fmt: skip
        assert new["on_conflict"] == "supersede" and new["conflicts"][0]["id"] == old["id"]
        history = await call(client, "memory_history", memory_id=old["id"])
        chain = history["chain"]
        assert [m["id"] for m in chain] == [old["id"], new["id"]]
        assert chain[0]["valid_until"] == "2024-01-01T00:00:00.000000Z"
        assert chain[0]["superseded_by"] == new["id"] and chain[1]["supersedes"] == [old["id"]]
        kept = await call(
            client, "remember", content="Tom drinks coffee again.", namespace="dana",
            on_conflict="keep",
        )  # fmt: skip
        found = await call(client, "recall", query="Tom coffee", namespace="dana")
        assert all(m["disputed_with"] == [] for m in found["memories"]), kept


async def test_supersede_then_recall_now_as_of_and_with_history(connect: Connect) -> None:
    async with connect() as client:
        old = await call(
            client, "remember", content="Dana lives in Berlin.", namespace="dana",
            valid_from="2022-03-01",
        )  # fmt: skip
        replaced = await call(
            client, "supersede", old_id=old["id"], content="Dana lives in Lisbon.",
            valid_from="2023-09-15",
        )  # fmt: skip
        new_id = replaced["new_id"]
        assert replaced["created"] and replaced["valid_until"] == "2023-09-15T00:00:00.000000Z"
        now = await recall_ids(client, "Where does Dana live?")
        assert now[0] == new_id and old["id"] not in now  # its successor was found
        with_history = await recall_ids(client, "Where does Dana live?", include_history=True)
        assert with_history.index(new_id) < with_history.index(old["id"])
        then = await recall_ids(client, "Where does Dana live?", as_of="2023-01-01")
        assert then == [old["id"]]  # the new one was not true yet
        later = await recall_ids(client, "Where does Dana live?", as_of="2024-01-01T00:00:00Z")
        assert later == [new_id]
        again = await refused(client, "supersede", old_id=old["id"], content="Dana lives in Rome.")
        assert "already replaced" in again and new_id in again


async def test_invalidate_ends_a_fact_and_it_ranks_below_what_is_true(connect: Connect) -> None:
    async with connect() as client:
        ended = await call(
            client, "remember", content="Dana is on the hiring committee.", namespace="dana",
            valid_from="2022-01-01",
        )  # fmt: skip
        current = await call(
            client, "remember", content="Dana is on the budget committee.", namespace="dana"
        )
        closed = await call(client, "invalidate", memory_id=ended["id"], valid_until="2023-01-01")
        assert closed["valid_until"] == "2023-01-01T00:00:00.000000Z"
        ranked = await recall_ids(client, "Dana hiring committee")
        assert ranked[0] == current["id"] and ended["id"] in ranked


async def test_bad_input_is_refused_and_changes_nothing(connect: Connect) -> None:
    async with connect() as client:
        first = await call(
            client, "remember", content="Dana lives in Berlin.", namespace="dana",
            valid_from="2022-03-01",
        )  # fmt: skip
        second = await call(client, "remember", content="Dana likes tea.", namespace="dana")
        unknown = "00000000-0000-4000-8000-000000000000"
        assert "no memory" in await refused(client, "supersede", old_id=unknown, content="x")
        assert "no memory" in await refused(client, "invalidate", memory_id=unknown)
        assert "itself" in await refused(
            client, "supersede", old_id=first["id"], new_id=first["id"]
        )
        assert "exactly one of them" in await refused(client, "supersede", old_id=first["id"])
        assert "valid_from" in await refused(
            client, "remember", content="x", valid_from="yesterday-ish"
        )
        assert "before it starts" in await refused(
            client, "remember", content="x", valid_from="2024-01-01", valid_until="2023-01-01"
        )
        assert "before the memory became true" in await refused(
            client, "invalidate", memory_id=first["id"], valid_until="2021-01-01"
        )
        assert "before the old one did" in await refused(
            client, "supersede", old_id=first["id"], new_id=second["id"], valid_from="2020-01-01"
        )
        brief = await call(
            client, "remember", content="Dana chaired a club.", namespace="dana",
            valid_from="2020-01-01", valid_until="2021-01-01",
        )  # fmt: skip
        assert "cannot end before it starts" in await refused(
            client, "supersede", old_id=first["id"], new_id=brief["id"], valid_from="2023-01-01"
        )
        assert await refused(client, "supersede", old_id="../etc/passwd", content="x")
        assert await refused(client, "recall", query="Dana", as_of="not a date")
        history = await call(client, "memory_history", memory_id=first["id"])
        assert [m["valid_until"] for m in history["chain"]] == [None]  # nothing changed
        await call(client, "supersede", old_id=first["id"], new_id=second["id"])
        cycle = await refused(client, "supersede", old_id=second["id"], new_id=first["id"])
        assert "cycle" in cycle


async def test_every_memory_id_a_tool_takes_is_checked_against_a_tokens_reach(
    connect: Connect,
) -> None:
    from loci.faces.mcp.namespace_scope import ID_ARGUMENTS

    async with connect(toolsets=["memory"]) as client:
        tools = (await client.list_tools()).tools
    named = {
        argument
        for tool in tools
        for argument in tool.input_schema.get("properties", {})
        if argument.endswith("_id") and argument != "idempotency_key"
    }
    assert {"old_id", "new_id", "first_id", "second_id", "memory_id"} <= named
    assert named <= set(ID_ARGUMENTS) | {"conversation_id"}, named - set(ID_ARGUMENTS)


async def test_a_question_that_names_a_past_year_is_answered_as_of_then(connect: Connect) -> None:
    async with connect() as client:
        old = await call(
            client, "remember", content="Dana lives in Berlin.", namespace="dana",
            valid_from="2021-03-01",
        )  # fmt: skip
        new = await call(
            client, "supersede", old_id=old["id"], content="Dana lives in Lisbon.",
            valid_from="2023-09-15",
        )  # fmt: skip
        in_2022 = await recall_ids(client, "Where did Dana live in 2022?")
        assert in_2022[0] == old["id"]  # Lisbon was not home yet
        in_2024 = await recall_ids(client, "Where did Dana live in 2024?")
        assert in_2024[0] == new["new_id"] and old["id"] not in in_2024


async def test_a_batch_is_checked_against_what_was_stored_before_each_item(
    connect: Connect,
) -> None:
    async with connect() as client:
        old = await call(client, "remember", content="Omar lives in Cairo.", namespace="dana")
        batch = await call(
            client,
            "remember_batch",
            namespace="dana",
            memories=[
                {"content": "Omar works at Acme.", "valid_from": "2022-01-01"},
                {"content": "Omar moved to Dubai.", "valid_from": "2024-01-01"},
                {"content": "Omar joined Initech.", "valid_from": "2024-02-01"},
            ],
        )
        assert batch["stored"] == 3 and batch["on_conflict"] == "flag"
        flagged = {item["id"]: [c["id"] for c in item["conflicts"]] for item in batch["conflicts"]}
        acme, dubai, initech = batch["ids"]
        assert flagged == {dubai: [old["id"]], initech: [acme]}
        assert (await call(client, "memory_history", memory_id=acme))["chain"][0][
            "disputed_with"
        ] == [initech]


async def test_a_conversation_turn_is_true_from_when_it_was_said_or_as_given(
    connect: Connect,
) -> None:
    async with connect() as client:
        turns = [
            {"speaker": "Dana", "text": "I live in Porto.", "timestamp": "2024-05-01T10:00:00Z"},
            {
                "speaker": "Dana",
                "text": "I lived in Berlin for years.",
                "timestamp": "2024-05-01T10:01:00Z",
                "valid_from": "2015-01-01",
                "valid_until": "2020-01-01",
            },
        ]
        await call(
            client, "remember_conversation", messages=turns, namespace="dana",
            conversation_id="chat",
        )  # fmt: skip
        found = await call(client, "recall", query="Dana Porto Berlin", namespace="dana")
        times = {m["content"].split(": ", 1)[-1]: m for m in found["memories"]}
        porto = next(m for text, m in times.items() if "Porto" in text)
        berlin = next(m for text, m in times.items() if "Berlin" in text)
        assert porto["valid_from"] == "2024-05-01T10:00:00.000000Z"
        assert (berlin["valid_from"], berlin["valid_until"]) == (
            "2015-01-01T00:00:00.000000Z",
            "2020-01-01T00:00:00.000000Z",
        )
        bad = [
            {**turns[0], "text": "I live in Faro.", "valid_from": "2025-01-01",
             "valid_until": "2024-01-01"}
        ]  # fmt: skip
        assert "before it starts" in await refused(
            client, "remember_conversation", messages=bad, namespace="dana"
        )


async def test_facts_written_out_of_date_order_are_told_in_date_order(connect: Connect) -> None:
    async with connect() as client:
        later = await call(
            client, "remember", content="Kai lives in Berlin.", namespace="dana",
            valid_from="2020-01-01",
        )  # fmt: skip
        earlier = await call(
            client, "remember", content="Kai lives in Hamburg.", namespace="dana",
            valid_from="2015-01-01", on_conflict="supersede",
        )  # fmt: skip
        (conflict,) = earlier["conflicts"]
        assert conflict["outcome"] == "flagged"  # an earlier fact replaces nothing
        assert "'hamburg' before, 'berlin' now" in conflict["reason"]
        listed = await client.read_resource("memory://conflicts/dana")
        (pair,) = json.loads(listed.contents[0].text)["conflicts"]  # type: ignore[union-attr]
        assert (pair["older"]["id"], pair["newer"]["id"]) == (earlier["id"], later["id"])
        assert (await call(client, "memory_history", memory_id=later["id"]))["chain"][0][
            "valid_until"
        ] is None
        await call(client, "supersede", old_id=earlier["id"], new_id=later["id"])


async def test_a_replaced_or_ended_memory_leaves_no_open_dispute(connect: Connect) -> None:
    async with connect() as client:
        porto = await call(client, "remember", content="Dana lives in Porto.", namespace="dana")
        lisbon = await call(client, "remember", content="Dana lives in Lisbon.", namespace="dana")
        again = await call(client, "remember", content="Dana lives in Faro.", namespace="dana")
        assert {c["id"] for c in again["conflicts"]} == {porto["id"], lisbon["id"]}
        await call(client, "supersede", old_id=porto["id"], new_id=lisbon["id"])
        await call(client, "invalidate", memory_id=lisbon["id"])
        listed = await client.read_resource("memory://conflicts/dana")
        assert json.loads(listed.contents[0].text)["conflicts"] == []  # type: ignore[union-attr]
        assert "not after" in await refused(
            client, "remember", content="x", valid_from="2024-05-01", valid_until="2024-05-01"
        )

"""Several `loci serve` processes on one PostgreSQL database, each with its own data folder:
a write through one is seen by the others at their next call, and a database that stops
taking connections makes calls fail with `storage_unavailable` until it is back, when every
server serves again by itself, having lost nothing acknowledged."""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import connected

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")


def on(database: str) -> dict[str, str]:
    return {"LOCI_DATABASE_URL": database, "LOCI_TOOLSETS": "memory,context,checkpoints"}


def error_type(result) -> str | None:
    return json.loads(result.content[0].text)["error"]["type"] if result.is_error else None


async def test_servers_on_one_database_see_each_others_writes(tmp_path, postgres_url):
    async with (
        connected(tmp_path / "a", **on(postgres_url)) as first,
        connected(tmp_path / "b", **on(postgres_url)) as second,
    ):
        stored = await first.call_tool("remember", {"content": "The deploy window is Friday."})
        memory_id = stored.structured_content["id"]
        found = await second.call_tool("recall", {"query": "when is the deploy window?"})
        assert found.structured_content["memories"][0]["id"] == memory_id
        saved = await second.call_tool("workflow_checkpoint_save", {"context": {"goal": "ship"}})
        loaded = await first.call_tool(
            "workflow_checkpoint_load", {"checkpointId": saved.structured_content["checkpointId"]}
        )
        assert loaded.structured_content["context"] == {"goal": "ship"}
        await second.call_tool("forget", {"memory_id": memory_id})
        gone = await first.call_tool("nearby", {"memory_id": memory_id})
        assert error_type(gone) == "not_found"


async def test_an_outage_is_storage_unavailable_and_servers_recover_by_themselves(
    tmp_path, postgres_url
):
    async with connected(tmp_path / "a", **on(postgres_url)) as server:
        before = await server.call_tool("remember", {"content": "Acknowledged before the outage."})
        assert not before.is_error
        outage(postgres_url, on_air=False)
        try:
            during = await server.call_tool("recall", {"query": "outage"})
            assert error_type(during) == "storage_unavailable"
            refused = await server.call_tool("remember", {"content": "Written during it."})
            assert error_type(refused) == "storage_unavailable"
        finally:
            outage(postgres_url, on_air=True)
        after = await server.call_tool("recall", {"query": "acknowledged before the outage"})
        assert not after.is_error
        contents = [m["content"] for m in after.structured_content["memories"]]
        assert contents == ["Acknowledged before the outage."]


def outage(postgres_url: str, on_air: bool) -> None:
    """Make the test's database refuse connections (and cut those open), or take them again."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    name = conninfo_to_dict(postgres_url)["dbname"]
    admin_url = postgres_url.replace(f"/{name}?", "/postgres?")
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {str(on_air).lower()}'.encode())
        if not on_air:
            admin.execute(
                b"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )


async def test_http_servers_share_named_tokens_and_report_an_outage_as_503(tmp_path, postgres_url):
    from tests.e2e.conftest import run_loci
    from tests.e2e.http_server import http_client, http_server

    with (
        http_server(tmp_path / "a", **on(postgres_url)) as first,
        http_server(tmp_path / "b", **on(postgres_url)) as second,
    ):
        made = run_loci(tmp_path / "a", "token", "create", "ann", "--json", **on(postgres_url))
        assert made.returncode == 0, made.stderr
        token = json.loads(made.stdout)["token"]  # made beside one server
        async with http_client(second, token) as client:  # honoured by the other
            stored = await client.call_tool("remember", {"content": "Shared through the database."})
            assert not stored.is_error
        outage(postgres_url, on_air=False)
        try:
            status, _, body = second.request("GET", "/healthz", authorized=False)
            assert status == 503 and json.loads(body)["status"] == "unavailable"
        finally:
            outage(postgres_url, on_air=True)
        status, _, body = second.request("GET", "/healthz", authorized=False)
        assert status == 200 and json.loads(body)["status"] == "ok"
        async with http_client(first, token) as client:
            found = await client.call_tool("recall", {"query": "shared through the database"})
            assert (
                found.structured_content["memories"][0]["content"] == "Shared through the database."
            )


async def test_a_server_started_with_its_database_down_says_so_and_serves_once_it_is_back(
    tmp_path, postgres_url
):
    from tests.e2e.http_server import http_client, http_server

    outage(postgres_url, on_air=False)
    try:
        with http_server(tmp_path / "a", healthy=False, **on(postgres_url)) as served:
            assert served.said("cannot use its store yet")
            assert served.request("GET", "/healthz", authorized=False)[0] == 503
            outage(postgres_url, on_air=True)
            assert served.request("GET", "/healthz", authorized=False)[0] == 200
            async with http_client(served) as client:
                stored = await client.call_tool(
                    "remember", {"content": "Written once it was back."}
                )
                assert not stored.is_error
    finally:
        outage(postgres_url, on_air=True)

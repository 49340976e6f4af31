"""End to end: checkpoints through a real `loci serve`, every error code included."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import connected
from tests.results import tool_error

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

CONTEXT = {
    "workflowId": "wf-release",
    "goal": "Publish release 3.0 with notes and a migration guide.",
    "decisions": ["Ship on Thursday", "SSO behind a flag"],
    "plan": {"steps": ["notes", "guide", "tag"], "current": "guide"},
    "debug_log": "2026-11-22 10:00:00 DEBUG start\n" * 40,
}
FAIL_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


async def test_save_load_list_and_pin_in_a_new_chat(tmp_path):
    home = tmp_path / "home"
    async with connected(home, **FAIL_KEYRING) as client:
        saved = await client.call_tool("workflow_checkpoint_save", {"context": CONTEXT})
        assert not saved.is_error, saved.content
        first = saved.structured_content
        assert first["status"] == "SAVED" and first["sessionId"].startswith("s-")
        assert first["tiers"]["CRITICAL"] == 2 and first["sizeBytes"] > 0
        again = await client.call_tool(
            "workflow_checkpoint_save", {"context": CONTEXT, "sessionId": first["sessionId"]}
        )
        assert again.structured_content["status"] == "SKIPPED_UNCHANGED"
        pinned = await client.call_tool(
            "workflow_mark_critical",
            {"sessionId": first["sessionId"], "contextKey": "plan.current"},
        )
        assert pinned.structured_content["status"] == "SUCCESS"
        missing = await client.call_tool(
            "workflow_mark_critical", {"sessionId": first["sessionId"], "contextKey": "nope"}
        )
        assert missing.structured_content["status"] == "KEY_NOT_FOUND"
    # A new chat: a new server process finds the session and loads it as it was saved.
    async with connected(home, **FAIL_KEYRING) as client:
        sessions = (await client.call_tool("list_sessions", {})).structured_content
        assert [s["sessionId"] for s in sessions["sessions"]] == [first["sessionId"]]
        assert sessions["sessions"][0]["pinnedKeys"] == ["plan.current"]
        loaded = await client.call_tool(
            "workflow_checkpoint_load", {"sessionId": first["sessionId"]}
        )
        assert loaded.structured_content["context"] == CONTEXT
        listed = await client.call_tool(
            "workflow_checkpoint_list", {"sessionId": first["sessionId"], "limit": 5}
        )
        assert [c["checkpointId"] for c in listed.structured_content["checkpoints"]] == [
            first["checkpointId"]
        ]


async def error_of(client, tool, arguments):
    result = await client.call_tool(tool, arguments)
    assert result.is_error, (tool, arguments, result.structured_content)
    return tool_error(result)


async def test_every_error_code_reaches_the_client(tmp_path):
    home = tmp_path / "home"
    env = {**FAIL_KEYRING, "LOCI_CHECKPOINT_MAX_PER_SESSION": "1"}
    async with connected(home, **env) as client:
        assert (await error_of(client, "workflow_checkpoint_load", {"checkpointId": "cp-x"}))[
            "type"
        ] == "CHECKPOINT_NOT_FOUND"
        not_found = await error_of(client, "workflow_checkpoint_list", {"sessionId": "nope"})
        assert not_found["type"] == "SESSION_NOT_FOUND" and not_found["details"]["status"] == 404
        for arguments in (
            {"context": {"goal": "x"}, "sessionId": "../../etc"},
            {"context": ["not", "an", "object"]},
            {"context": {"goal": "x"}, "metadata": {"priorities": {"goal": "MAYBE"}}},
        ):
            error = await error_of(client, "workflow_checkpoint_save", arguments)
            assert error["type"] == "invalid_input", arguments
        saved = await client.call_tool(
            "workflow_checkpoint_save",
            {"context": {"goal": "x"}, "sessionId": "full", "metadata": {"critical": True}},
        )
        assert not saved.is_error
        quota = await error_of(
            client, "workflow_checkpoint_save", {"context": {"goal": "y"}, "sessionId": "full"}
        )
        assert quota["type"] == "STORAGE_QUOTA_EXCEEDED" and quota["details"]["status"] == 413
        for tool, arguments in (
            ("workflow_checkpoint_list", {"sessionId": "full", "offset": 2**63}),
            ("list_sessions", {"offset": 2**63}),
        ):
            assert (await error_of(client, tool, arguments))["type"] == "invalid_input"

        blob_folder = home / "checkpoints" / "blobs"
        for path in blob_folder.glob("*/*.blob"):
            path.write_bytes(b"damaged")
        corrupted = await error_of(client, "workflow_checkpoint_load", {"sessionId": "full"})
        assert corrupted["type"] == "CHECKPOINT_CORRUPTED"

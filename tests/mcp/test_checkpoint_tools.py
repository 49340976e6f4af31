"""Checkpoint tools that cannot write: the error a client gets, and nothing recorded."""

from __future__ import annotations

import pytest

from tests.results import tool_error

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("no_os_keychain")]
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")
SAVE = {"context": {"goal": "x"}, "sessionId": "s"}


async def test_encryption_without_a_key_source_is_refused_never_written_in_the_clear(connect):
    async with connect(encryption="enabled") as client:
        refused = await client.call_tool("workflow_checkpoint_save", SAVE)
        assert refused.is_error and tool_error(refused)["type"] == "ENCRYPTION_KEY_UNAVAILABLE"
        assert (await client.call_tool("list_sessions", {})).structured_content["total"] == 0


@pytest.mark.sqlite_only
async def test_a_blob_folder_that_cannot_be_made_is_storage_unavailable(home, connect):
    (home / "checkpoints").mkdir(parents=True)
    (home / "checkpoints" / "blobs").write_text("a file where the folder should be")
    async with connect() as client:
        refused = await client.call_tool("workflow_checkpoint_save", SAVE)
        assert refused.is_error
        error = tool_error(refused)
        assert error["type"] == "STORAGE_UNAVAILABLE" and error["details"]["status"] == 503
        assert (await client.call_tool("list_sessions", {})).structured_content["total"] == 0

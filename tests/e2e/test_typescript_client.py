"""End to end with the TypeScript MCP SDK client, which most editors are built on: it checks
every structured result against the tool's output schema, errors included."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

CLIENT = Path(__file__).parent / "ts_client"
NODE = shutil.which("node")
UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"
LUNCH = {"speaker": "Ana", "text": "Lunch at noon?", "timestamp": "2026-05-01T12:00:00Z"}
TALE = (
    "Mira Voss stepped off the ferry with a brass compass. Mira Voss never looked back, and "
    "the Captain, as the crew called her, was gone by noon."
)


@pytest.fixture(scope="module")
def ts_client() -> Path:
    """The driver script, its SDK installed with npm (once) from the lock file."""
    if NODE is None:
        pytest.skip("node is not installed: the TypeScript SDK client cannot run")
    if not (CLIENT / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        npm = shutil.which("npm")
        assert npm is not None, "node is installed without npm"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=CLIENT, check=True, timeout=300)
    return CLIENT / "drive.mjs"


def drive(script: Path, home: Path, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Run the steps through the TypeScript client against a fresh `loci serve`."""
    plan = {
        "command": sys.executable,
        "args": ["-m", "loci", "serve"],
        "env": {**os.environ, "LOCI_HOME": str(home)},
        "steps": steps,
    }
    return run_plan(script, plan)


def run_plan(script: Path, plan: dict[str, Any]) -> dict[str, Any]:
    """Run a plan (see drive.mjs) through the TypeScript client; what it printed."""
    done = subprocess.run(
        [NODE or "node", str(script)],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"method": "callTool", "params": {"name": name, "arguments": arguments}}


def error_of(step: dict[str, Any]) -> dict[str, Any]:
    """The loci error a step's result carries, read as an agent reads it: from its text."""
    assert "thrown" not in step, step
    result = step["result"]
    assert result["isError"] is True, result
    return json.loads(result["content"][0]["text"])["error"]


def test_every_toolset_answers_the_typescript_client(ts_client: Path, tmp_path: Path) -> None:
    check_answers(drive(ts_client, tmp_path / "home", every_toolset(tmp_path)))


def test_every_toolset_answers_the_typescript_client_over_http(
    ts_client: Path, tmp_path: Path
) -> None:
    from tests.e2e.http_server import http_server

    with http_server(tmp_path / "home") as served:
        plan = {
            "url": served.url,
            "headers": {"Authorization": f"Bearer {served.token}"},
            "steps": every_toolset(tmp_path),
        }
        check_answers(run_plan(ts_client, plan))
        assert served.stop() == 0


CHATS = Path(__file__).resolve().parent.parent / "fixtures" / "chats"


def every_toolset(tmp_path: Path) -> list[dict[str, Any]]:
    """A success and an error of every toolset, and the client features."""
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return [
        {"method": "listTools", "params": {}},
        call("remember", {"content": "The deploy key lives in the vault", "tags": ["ops"]}),
        call("nearby", {"memory_id": "nope"}),
        call("recall", {"query": "where is the deploy key?"}),
        call("forget", {"memory_id": UNKNOWN_ID}),
        call("remember_conversation", {"namespace": "chat", "messages": [LUNCH]}),
        call("remember_conversation", {"namespace": "chat", "messages": [{"speaker": "Ana"}]}),
        call("init_project", {"path": str(project)}),
        call("get_context", {"project_id": "no-such-project", "file_type": "bugs"}),
        call("workflow_checkpoint_save", {"context": {"goal": "ship", "plan": ["a", "b"]}}),
        call("workflow_checkpoint_load", {"checkpointId": "cp-nope"}),
        {"method": "setLoggingLevel", "params": "warning"},
        {"method": "listPrompts", "params": {}},
        {"method": "getPrompt", "params": {"name": "remember_this_session", "arguments": {}}},
        {
            "method": "complete",
            "params": {
                "ref": {"type": "ref/prompt", "name": "recall_about"},
                "argument": {"name": "namespace", "value": "ch"},
            },
        },
        {"method": "listResourceTemplates", "params": {}},
        call(
            "continue_story", {"session_id": "tale", "user_input": "", "assistant_response": TALE}
        ),
        call("get_story_context", {"session_id": "tale", "current_input": "Where is Mira Voss?"}),
        call("search_story_memory", {"session_id": "tale", "query": "compass"}),
        call("get_character_info", {"session_id": "tale", "character_name": "Nobody Known"}),
        call("get_context_stats", {"session_id": "tale"}),
        call("list_story_sessions", {}),
        call("update_plot_thread", {"session_id": "tale", "name": "The compass", "action": "open"}),
        call("get_plot_threads", {"session_id": "tale"}),
        call("regions", {}),
        call("wander", {"seed": "vault keys", "steps": 2, "random_seed": 1}),
        call("visualize", {"format": "json", "include_edges": True}),
        call("visualize", {"format": "mermaid"}),
        call("regions", {"namespace": "nowhere"}),
        call("extract", {"text": "Ana: We decided to ship the beta in June.", "namespace": "x"}),
        call("consolidate", {"dry_run": True}),
        call("decay", {"strategy": "time", "dry_run": True}),
        call("extract", {"text": "Ana: hi", "types": ["gossip"]}),
        call(
            "correct_character",
            {"session_id": "tale", "action": "alias", "name": "Mira Voss", "other": "the Captain"},
        ),
        call(
            "correct_character",
            {"session_id": "tale", "action": "merge", "name": "Mira Voss", "other": "Nobody"},
        ),
        call("suggest_cast_corrections", {"session_id": "tale"}),
        call("undo_cast_correction", {"session_id": "tale"}),
        call(
            "search_story_memory", {"session_id": "tale", "query": "ferry", "include_chunk": True}
        ),
        call("remember", {"content": "Dana lives in Berlin.", "valid_from": "2022-01-01"}),
        call("remember", {"content": "Dana moved to Lisbon.", "valid_from": "2023-09-01"}),
        call("recall", {"query": "Where does Dana live?", "as_of": "2023-01-01"}),
        call("memory_history", {"memory_id": UNKNOWN_ID}),
        call("supersede", {"old_id": UNKNOWN_ID, "content": "x"}),
        call(
            "remember_batch",
            {"memories": [{"content": "Dana works at Acme."}], "on_conflict": "keep"},
        ),
        call("import_chats", {"path": str(CHATS / "chatgpt"), "dry_run": True}),
        call("import_chats", {"content": '{"title": "not a chat"}'}),
    ]


def check_answers(driven: dict[str, Any]) -> None:
    """What `every_toolset` must give back."""
    assert {"tools", "resources", "prompts", "logging", "completions"} <= set(driven["server"])
    answers = driven["steps"]
    assert not any("thrown" in answer for answer in answers), answers
    listed = {tool["name"] for tool in answers[0]["result"]["tools"]}
    assert {"remember", "init_project", "workflow_checkpoint_save"} <= listed
    successes = [answers[i]["result"] for i in (1, 3, 5, 7, 9)]
    assert all(not result.get("isError") and result["structuredContent"] for result in successes)
    assert answers[3]["result"]["structuredContent"]["memories"][0]["content"].startswith(
        "The deploy"
    )
    assert error_of(answers[2])["type"] == "invalid_input"
    assert "memory_id" in error_of(answers[2])["message"]
    assert error_of(answers[4])["type"] == "not_found"
    assert error_of(answers[6])["type"] == "invalid_input"
    assert error_of(answers[8])["type"] == "not_found"
    load_error = error_of(answers[10])
    assert load_error["type"] == "CHECKPOINT_NOT_FOUND" and load_error["details"]["status"] == 404
    assert len(answers[12]["result"]["prompts"]) == 4
    assert "remember_batch" in answers[13]["result"]["messages"][0]["content"]["text"]
    assert answers[14]["result"]["completion"]["values"] == ["chat"]
    assert len(answers[15]["result"]["resourceTemplates"]) == 8
    story = [answers[i]["result"] for i in (16, 17, 18, 20, 21, 22, 23)]
    assert all(not result.get("isError") and result["structuredContent"] for result in story)
    assert "Mira Voss" in answers[17]["result"]["structuredContent"]["text"]
    assert error_of(answers[19])["type"] == "not_found"
    spatial = [answers[i]["result"] for i in (24, 25, 26, 27)]
    assert all(not result.get("isError") and result["structuredContent"] for result in spatial)
    assert len(answers[25]["result"]["structuredContent"]["journey"]) == 2  # all there is
    assert answers[27]["result"]["structuredContent"]["mermaid"].startswith("flowchart")
    assert error_of(answers[28])["type"] == "not_found"
    lifecycle = [answers[i]["result"] for i in (29, 30, 31)]
    assert all(not result.get("isError") and result["structuredContent"] for result in lifecycle)
    assert answers[29]["result"]["structuredContent"]["total_extracted"] == 1
    assert error_of(answers[32])["type"] == "invalid_input"
    corrected = answers[33]["result"]
    assert not corrected.get("isError")
    assert "the Captain" in corrected["structuredContent"]["aliases"]
    assert error_of(answers[34])["type"] == "not_found"
    suggested = answers[35]["result"]["structuredContent"]
    assert suggested["corrections"] and suggested["corrections"][0].startswith("#1: ")
    undone = answers[36]["result"]["structuredContent"]
    assert "'the Captain' added" in undone["undone"] and undone["corrections"] == []
    assert not answers[37]["result"].get("isError")
    facts = [answers[i]["result"] for i in (38, 39, 40, 43)]
    assert all(not result.get("isError") and result["structuredContent"] for result in facts)
    flagged = answers[39]["result"]["structuredContent"]["conflicts"]
    assert [c["content"] for c in flagged] == ["Dana lives in Berlin."]
    then = answers[40]["result"]["structuredContent"]["memories"]
    assert [m["content"] for m in then if "Dana" in m["content"]] == ["Dana lives in Berlin."]
    assert error_of(answers[41])["type"] == "not_found"
    assert error_of(answers[42])["type"] == "not_found"
    chats = answers[44]["result"]
    assert not chats.get("isError") and chats["structuredContent"]["listed"][0]["title"] == (
        "Trip to Lisbon"
    )  # with its nullable fields (a conversation without a title) checked against the schema
    assert error_of(answers[45])["type"] == "invalid_input"

"""A poor context file corrected by following loci's guidance, through the in-memory client."""

from __future__ import annotations

import json
import re

import pytest

from mcp import MCPError
from tests.mcp.conftest import Connect
from tests.results import tool_error

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")
POOR = """# Mental Model

## Overview

Shopkeeper is an inventory service for small shops. TODO: say what it is built with.

## Architecture

The web front end calls the Go API. The API stores stock in PostgreSQL and emits events.

## Key Decisions

- Cache stock in Redis: shop pages read stock on every view
"""
#: What the "agent" writes where guidance leaves a blank to fill in.
ANSWER = "It is written in Go."


def sections(markdown: str) -> dict[str, str]:
    """Level-2 sections of a document: heading -> body."""
    found: dict[str, str] = {}
    for chunk in re.split(r"^## ", markdown, flags=re.MULTILINE)[1:]:
        heading, _, body = chunk.partition("\n")
        found[heading.strip()] = body.strip()
    return found


def apply_guidance(document: str, guidance: dict) -> str:
    """Do what an agent does with guidance: take each corrected section of `example_fix` into
    the document (replacing the section of that name, or adding it), fill the blanks it marks,
    and drop the comments."""
    fixes = sections(re.sub(r"<!--.*?-->\n?", "", guidance["example_fix"]))
    head = document.split("\n## ", 1)[0]
    current = sections(document)
    for heading, body in fixes.items():
        current[heading] = body.replace("<fill in>", ANSWER)
    return head + "\n\n" + "\n\n".join(f"## {h}\n\n{b}" for h, b in current.items()) + "\n"


async def test_a_poor_document_is_corrected_by_following_the_guidance(tmp_path, connect: Connect):
    async with connect() as client:
        (tmp_path / "shopkeeper").mkdir()
        project = await client.call_tool("init_project", {"path": str(tmp_path / "shopkeeper")})
        project_id = project.structured_content["project_id"]
        skeleton = await client.call_tool(
            "get_context", {"project_id": project_id, "file_type": "mental_model"}
        )
        assert skeleton.structured_content["is_skeleton"]
        document, statuses = POOR, []
        for _ in range(3):
            result = await client.call_tool(
                "update_context",
                {"project_id": project_id, "file_type": "mental_model", "content": document},
            )
            assert not result.is_error, result.content
            outcome = result.structured_content
            statuses.append(outcome["status"])
            if outcome["status"] == "success":
                break
            assert outcome["validation_errors"] and outcome["correction_guidance"]
            document = apply_guidance(document, outcome["correction_guidance"])
        assert statuses[-1] == "success", statuses
        assert statuses[0] == "correction_needed" and len(statuses) <= 3
        saved = await client.call_tool(
            "get_context", {"project_id": project_id, "file_type": "mental_model"}
        )
        assert saved.structured_content["content"] == document
        assert "| Cache stock in Redis | shop pages read stock on every view |" in document
        found = await client.call_tool(
            "recall", {"query": "why do we cache stock?", "namespace": f"project:{project_id}"}
        )
        assert "Redis" in found.structured_content["memories"][0]["content"]
        template = await client.read_resource("context://templates/mental_model")
        assert json.loads(template.contents[0].text)["name"] == "mental_model"
        # loci's own message reaches the client (the SDK withholds a crash's text).
        with pytest.raises(MCPError, match="the templates are: bugs, features, mental_model"):
            await client.read_resource("context://templates/diary")
        with pytest.raises(MCPError, match="invalid_input: name must be 1-64"):
            await client.read_resource("context://templates/" + "a" * 100)


async def test_context_errors_come_back_structured(tmp_path, connect: Connect):
    async with connect() as client:
        (tmp_path / "p").mkdir()
        project = await client.call_tool("init_project", {"path": str(tmp_path / "p")})
        project_id = project.structured_content["project_id"]
        cases = [
            ("init_project", {"path": "relative/path"}, "invalid_input"),
            ("get_context", {"project_id": "../../etc", "file_type": "bugs"}, "invalid_input"),
            ("get_context", {"project_id": project_id, "file_type": "../x"}, "invalid_input"),
            ("get_context", {"project_id": "x" * 65, "file_type": "bugs"}, "invalid_input"),
            ("get_context", {"project_id": "nope-1", "file_type": "bugs"}, "not_found"),
            ("get_context", {"project_id": project_id, "file_type": "diary"}, "not_found"),
            (
                "get_context",
                {"project_id": project_id, "file_type": "bugs", "version": 4},
                "not_found",
            ),
            (
                "update_context",
                {"project_id": project_id, "file_type": "bugs", "content": "x" * 300_000},
                "invalid_input",
            ),
            ("update_context", {"project_id": project_id, "file_type": "bugs"}, "invalid_input"),
            (
                "get_context",
                {"project_id": project_id, "file_type": "bugs", "version": 2**63},
                "invalid_input",
            ),
        ]
        for tool, arguments, code in cases:
            result = await client.call_tool(tool, arguments)
            assert result.is_error, (tool, arguments)
            assert tool_error(result)["type"] == code, (tool, arguments)
        listed = await client.call_tool("list_projects", {})
        assert listed.structured_content["total"] == 1
        assert listed.structured_content["projects"][0]["files"] == []

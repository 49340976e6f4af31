"""How a namespace-limited token's calls are scoped: the namespace a call uses, and what an
answer shows."""

from __future__ import annotations

import pytest

from loci.access.grant import Grant
from loci.errors import ForbiddenError
from loci.faces.mcp.namespace_scope import NamespaceScope, Reach, chosen

ONE = Grant("ana", namespaces=frozenset({"mine"}))
TWO = Grant("bo", namespaces=frozenset({"work", "home"}))


MEMORY_ONLY = Grant("mo", toolsets=frozenset({"memory"}))


def test_a_call_uses_a_namespace_of_the_token() -> None:
    assert chosen(Reach(ONE), None) == "mine"  # filled in: the token has one
    assert chosen(Reach(TWO), "home") == "home"
    with pytest.raises(ForbiddenError, match=r"name one .*allowed the namespaces home, work"):
        chosen(Reach(TWO), None)
    with pytest.raises(ForbiddenError, match="'theirs'"):
        chosen(Reach(ONE), "theirs")
    assert chosen(Reach(ONE), 5) == 5  # not text: the tool's own check refuses it


def test_context_files_follow_the_context_toolsets_grant() -> None:
    assert Reach(MEMORY_ONLY).limited and not Reach(Grant("all")).limited
    assert Reach(MEMORY_ONLY).allows("work")
    assert not Reach(MEMORY_ONLY).allows("project:proj-1")
    with pytest.raises(ForbiddenError, match="project:"):
        chosen(Reach(MEMORY_ONLY), "project:proj-1")
    with_context = Grant("mc", toolsets=frozenset({"memory", "context"}))
    assert Reach(with_context).allows("project:proj-1") and not Reach(with_context).limited
    listed = Grant("ml", toolsets=frozenset({"memory"}), namespaces=frozenset({"project:p"}))
    assert not Reach(listed).allows("project:p")  # named, but of a toolset it may not use


@pytest.mark.anyio
async def test_a_batch_and_a_rename_stay_in_the_tokens_namespaces() -> None:
    scope = NamespaceScope(provider=None)  # type: ignore[arg-type]  # no ids: no store read
    batch = {"name": "remember_batch", "arguments": {"memories": [{"content": "a"}]}}
    assert (await scope.scoped(ONE, "tools/call", batch))["arguments"]["namespace"] == "mine"
    outside = {"memories": [{"content": "a", "namespace": "theirs"}]}
    with pytest.raises(ForbiddenError):
        await scope.scoped(ONE, "tools/call", {"name": "remember_batch", "arguments": outside})
    rename = {"action": "rename", "name": "mine", "new_name": "theirs"}
    with pytest.raises(ForbiddenError):
        await scope.scoped(ONE, "tools/call", {"name": "namespaces", "arguments": rename})
    listing = {"name": "namespaces", "arguments": {}}
    assert (await scope.scoped(ONE, "tools/call", listing))["arguments"] == {}


def test_answers_show_the_tokens_namespaces_only() -> None:
    scope = NamespaceScope(provider=None)  # type: ignore[arg-type]
    completion = {"completion": {"values": ["mine", "theirs"], "total": 2, "hasMore": False}}
    shown = scope.visible(ONE, "completion/complete", {}, completion)
    assert shown["completion"]["values"] == ["mine"] and shown["completion"]["total"] == 1
    resources = {"resources": [{"uri": "memory://stats"}, {"uri": "memory://namespaces/mine"}]}
    shown = scope.visible(ONE, "resources/list", {}, resources)
    assert shown["resources"] == [{"uri": "memory://namespaces/mine"}]
    listing = {
        "structuredContent": {
            "action": "list",
            "namespaces": [{"name": "mine"}, {"name": "theirs"}, {"name": "project:p"}],
            "message": "3 namespaces",
        }
    }
    call = {"name": "namespaces"}
    shown = scope.visible(ONE, "tools/call", call, listing)["structuredContent"]
    assert shown["namespaces"] == [{"name": "mine"}] and shown["message"] == "1 namespace"
    shown = scope.visible(MEMORY_ONLY, "tools/call", call, listing)["structuredContent"]
    assert [n["name"] for n in shown["namespaces"]] == ["mine", "theirs"]
    stats = {"structuredContent": {"total_memories": 3, "storage_path": "/x", "storage_size_mb": 9}}
    shown = scope.visible(ONE, "tools/call", {"name": "stats"}, stats)["structuredContent"]
    assert shown["storage_path"] is None and shown["storage_size_mb"] is None


@pytest.mark.anyio
async def test_open_conflicts_are_read_one_namespace_in_reach_at_a_time() -> None:
    scope = NamespaceScope(provider=None)  # type: ignore[arg-type]
    every = {"uri": "memory://conflicts"}
    with pytest.raises(ForbiddenError, match="every namespace"):
        await scope.scoped(ONE, "resources/read", every)
    with pytest.raises(ForbiddenError, match="'theirs'"):
        await scope.scoped(ONE, "resources/read", {"uri": "memory://conflicts/theirs"})
    mine = {"uri": "memory://conflicts/mine"}
    assert (await scope.scoped(ONE, "resources/read", mine))["uri"] == mine["uri"]

"""How a namespace-limited token's calls are scoped: the namespace a call uses, and what an
answer shows."""

from __future__ import annotations

import pytest

from loci.access.grant import Grant
from loci.errors import ForbiddenError
from loci.mcp.namespace_scope import NamespaceScope, chosen


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


ONE = Grant("ana", namespaces=frozenset({"mine"}))
TWO = Grant("bo", namespaces=frozenset({"work", "home"}))


def test_a_call_uses_a_namespace_of_the_token() -> None:
    assert chosen(ONE, None) == "mine"  # filled in: the token has one
    assert chosen(TWO, "home") == "home"
    with pytest.raises(ForbiddenError, match="name one of home, work"):
        chosen(TWO, None)
    with pytest.raises(ForbiddenError, match="'theirs'"):
        chosen(ONE, "theirs")
    assert chosen(ONE, 5) == 5  # not text: the tool's own check refuses it


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

"""Named access tokens: made once, kept as digests, looked up by what a client presents,
refused when bad, and gone when revoked; on both engines."""

from __future__ import annotations

import pytest

from loci.access.grant import Grant
from loci.access.tokens import AccessTokens
from loci.errors import ConflictError, InvalidInputError, NotFoundError
from loci.storage.databases.db import Database
from tests.engines import Opener


@pytest.fixture
def tokens(store: Database) -> AccessTokens:
    return AccessTokens(store)


def test_a_token_is_made_once_kept_as_a_digest_and_gives_its_grant(
    tokens: AccessTokens, store: Database
) -> None:
    token, info = tokens.create("ana", ["story", "memory"], read_only=True)
    assert token.startswith("loci_") and len(token) > 40
    assert info.toolsets == ["memory", "story"] and info.read_only
    assert tokens.grant_of(token) == Grant("ana", frozenset({"memory", "story"}), True)
    everything, _ = tokens.create("bo")
    assert tokens.grant_of(everything) == Grant("bo", None, False)
    with store.locked() as conn:
        kept = repr(conn.execute("SELECT * FROM access_tokens").fetchall())
    assert token not in kept and everything not in kept
    assert [found.name for found in tokens.listing()] == ["ana", "bo"]


def test_what_a_grant_allows() -> None:
    reader = Grant("r", frozenset({"memory"}), read_only=True)
    assert reader.allows("memory", writes=False)
    assert not reader.allows("memory", writes=True)
    assert not reader.allows("context", writes=False)
    assert Grant("all").allows("story", writes=True)


@pytest.mark.parametrize("presented", ["", "loci_", "loci_" + "x" * 43, "Bearer x", "../etc"])
def test_tokens_that_are_not_named_ones_give_no_grant(tokens: AccessTokens, presented: str) -> None:
    tokens.create("ana")
    assert tokens.grant_of(presented) is None


@pytest.mark.parametrize("name", ["", "../ana", "a b", "x" * 65, "-dash", "ana\n"])
def test_bad_names_are_refused_and_nothing_is_made(tokens: AccessTokens, name: str) -> None:
    with pytest.raises(InvalidInputError, match="name"):
        tokens.create(name)
    assert tokens.listing() == []


@pytest.mark.parametrize("toolsets", [[], ["mem"], ["memory", "../x"]])
def test_unknown_toolsets_are_refused(tokens: AccessTokens, toolsets: list[str]) -> None:
    with pytest.raises(InvalidInputError, match="toolsets"):
        tokens.create("ana", toolsets)
    assert tokens.listing() == []


def test_a_name_is_taken_once_and_a_revoked_token_is_refused(open_store: Opener) -> None:
    tokens, on_another_server = AccessTokens(open_store()), AccessTokens(open_store())
    token, _ = tokens.create("ana")
    with pytest.raises(ConflictError, match="already a token named 'ana'"):
        tokens.create("ana", read_only=True)
    assert on_another_server.revoke("ana").name == "ana"
    assert tokens.grant_of(token) is None  # another server's revocation holds here
    revoked = tokens.revocation(token)  # and it is known as revoked, not as a wrong token
    assert revoked is not None and revoked.name == "ana" and revoked.revoked_at
    with pytest.raises(NotFoundError, match="no token named 'ana'"):
        tokens.revoke("ana")
    fresh, _ = tokens.create("ana")  # the name is free again, with a new token
    assert fresh != token and tokens.grant_of(fresh) is not None
    assert tokens.revocation(fresh) is None and tokens.revocation("loci_never-made") is None


def test_a_token_may_be_limited_to_namespaces(tokens: AccessTokens) -> None:
    token, info = tokens.create("ana", namespaces=["work", "home", "work"])
    assert info.namespaces == ["home", "work"]
    grant = tokens.grant_of(token)
    assert grant is not None and grant.namespaces == frozenset({"home", "work"}) and grant.limited
    assert not Grant("all").limited


@pytest.mark.parametrize("namespaces", [[], ["../etc"], ["a b"], ["x" * 129]])
def test_bad_namespaces_are_refused(tokens: AccessTokens, namespaces: list[str]) -> None:
    with pytest.raises(InvalidInputError, match="namespaces"):
        tokens.create("ana", namespaces=namespaces)
    assert tokens.listing() == []

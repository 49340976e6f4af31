"""The vector search embeds the query without the conversation speakers' names."""

from __future__ import annotations

import numpy as np
import pytest

from loci.app import App
from loci.engine.search.query_words import vector_query
from loci.engine.sequences.speakers import Speakers
from loci.toolsets.memory.conversations.messages import parse_messages
from loci.toolsets.memory.models import MemoryDraft

SPEAKERS = Speakers.of(["Ana", "Ben", "Anabel", "Dr. Okafor"])


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What books has Ana read?", "What books has read?"),
        ("what are ana's hobbies?", "what are hobbies?"),
        ("What are Ana\u2019s hobbies?", "What are hobbies?"),  # a curly apostrophe
        ("Did Ana and Ben meet in May?", "Did and meet in May?"),
        ("What did Dr. Okafor say?", "What did say?"),  # names of several words
        ("Is Anabel older than Ana?", "Is older than ?"),  # the longer name first
        ("What about Benjamin?", "What about Benjamin?"),  # whole names only
        ("What did we cook?", "What did we cook?"),  # no name: the query as it is
        ("Ana?", "Ana?"),  # nothing but a name: the query as it is
        ("Ana and Ben", "and"),  # a stop word is still a word left
    ],
)
def test_vector_query_leaves_out_speaker_names(query: str, expected: str) -> None:
    assert vector_query(query, SPEAKERS) == expected


def test_vector_query_keeps_queries_without_speakers_untouched() -> None:
    query = "  spaced   out\nquery about Ana "
    assert vector_query(query, Speakers.of([])) is query
    assert vector_query(query, Speakers.of(["", "Zoe", "?!"])) is query
    literal = Speakers.of(["(C++) bot"])  # names are literal, not patterns
    assert vector_query("Ana's (C++) bot notes", literal) == "Ana's notes"


def test_speaker_names_are_found_by_their_first_word() -> None:
    names = Speakers.of(["Mary", "Mary Ann", "@bob", "Zoë", "..."])
    assert names.names == {"Mary", "Mary Ann", "@bob", "Zoë", "..."}
    assert sorted(names.candidates("did MARY call?")) == ["Mary", "Mary Ann"]
    assert names.candidates("ask @Bob") == ["@bob"]
    assert names.candidates("what did zoë say") == ["Zoë"]
    assert names.candidates("Maryland ... zoe") == []
    silent = Speakers(names.names_by_code, names.codes_by_word, np.zeros(5, dtype=np.bool_))
    assert silent.candidates("did Mary call?") == []  # known names, none speaking here
    many = Speakers.of([f"Person{n}" for n in range(5000)])
    assert vector_query("What did person4321 say?", many) == "What did say?"


def chat(*turns: tuple[str, str, str]) -> list[dict[str, str]]:
    return [
        {
            "speaker": speaker,
            "text": text,
            "timestamp": "2024-03-01T10:00:00Z",
            "session_id": session,
        }
        for speaker, text, session in turns
    ]


def test_actors_are_those_of_the_namespaces_and_follow_changes(app: App, second_app: App) -> None:
    conversations = app.conversations
    conversations.remember_conversation(
        parse_messages(chat(("Ana", "Hi", "s1"), ("Ben", "Hello", "s1"))), "one"
    )
    conversations.remember_conversation(parse_messages(chat(("Cleo", "Hey", "s1"))), "two")
    app.memory.remember(MemoryDraft(content="Zed: not a turn", namespace="two"))
    engine = app.engine
    assert engine.actors(None).names == {"Ana", "Ben", "Cleo"}  # a note has no actor
    assert engine.actors(None) is engine.actors(None)  # kept until the memories change
    assert engine.actors(frozenset(["one"])).names == {"Ana", "Ben"}
    assert engine.actors(frozenset(["two", "none"])).names == {"Cleo"}
    assert engine.actors(frozenset()).names == frozenset()
    # Another process deletes Ben's only turn and renames a namespace.
    second_app.memory.forget(filters={"metadata.speaker": {"eq": "Ben"}})
    second_app.catalog.namespaces("rename", "two", "three")
    assert engine.actors(frozenset(["one"])).names == {"Ana", "Ben"}
    engine.catch_up()
    assert engine.actors(frozenset(["one"])).names == {"Ana"}
    assert engine.actors(frozenset(["three"])).names == {"Cleo"}
    assert engine.actors(frozenset(["two"])).names == frozenset()


def test_recall_embeds_the_query_without_speaker_names(app: App) -> None:
    turns = chat(
        ("Ana", "I finally finished that fantasy series, what a ride.", "s1"),
        ("Ben", "Nice! I spent the weekend fixing my bike.", "s1"),
        ("Ana", "My sister visits next week, I need to tidy up.", "s2"),
        ("Ana", "Work has been so busy lately, lots of meetings.", "s2"),
        ("Ana", "I think I will repaint the kitchen in spring.", "s3"),
    )
    app.conversations.remember_conversation(parse_messages(turns), "chat")
    query = "What books has Ana read?"
    # The first recall learns of Ana only when it refreshes, beside the embedding: it embeds
    # again. The second knows her from the start. Both embed the same text.
    first = app.memory.recall(query, limit=1, namespace="chat", hybrid_alpha=1.0)
    second = app.memory.recall(query, limit=1, namespace="chat", hybrid_alpha=1.0)
    found = second.memories[0]
    assert found.content == "Ana: I finally finished that fantasy series, what a ride."
    assert first.memories[0].similarity == pytest.approx(found.similarity, abs=1e-6)
    assert first.query_embedding_time_ms > 0 and second.query_embedding_time_ms > 0
    embedder = app.engine.embedder
    plain, stripped = embedder.embed([query, "What books has read?"])
    vector = embedder.embed([found.content])[0]
    assert found.similarity == pytest.approx(float(np.dot(stripped, vector)), abs=1e-5)
    assert found.similarity != pytest.approx(float(np.dot(plain, vector)), abs=1e-3)


def test_stores_without_conversations_embed_the_query_as_it_is(app: App) -> None:
    content = "Ana: the deploy key lives in the vault"
    app.memory.remember(MemoryDraft(content=content, namespace="notes"))
    query = "Where does Ana keep the deploy key?"
    found = app.memory.recall(query, limit=1, namespace="notes", hybrid_alpha=1.0).memories[0]
    plain, vector = app.engine.embedder.embed([query, content])
    assert found.similarity == pytest.approx(float(np.dot(plain, vector)), abs=1e-5)

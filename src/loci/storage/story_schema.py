"""The story engine's tables (migration 13), kept apart from the memories' schema.

A story session is one growing text (the stream): every interaction appends its pieces, the
window is the stream's tail, and relief moves the oldest complete paragraphs of the window into
archived chunks. Passages of the stream are embedded as they arrive, with the entities they
mention; the entity graph (characters, places, their aliases and relations) and plot threads
belong to their session and go with it.
"""

STORY_TABLES = """
CREATE TABLE story_sessions (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    settings      TEXT NOT NULL,
    stream_chars  INTEGER NOT NULL DEFAULT 0,
    stream_tokens INTEGER NOT NULL DEFAULT 0,
    window_start  INTEGER NOT NULL DEFAULT 0,
    window_tokens INTEGER NOT NULL DEFAULT 0,
    interactions  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE story_pieces (
    id          INTEGER PRIMARY KEY,
    session     INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    interaction INTEGER NOT NULL,
    role        TEXT NOT NULL,
    start       INTEGER NOT NULL,
    token_start INTEGER NOT NULL,
    content     TEXT NOT NULL
);
CREATE INDEX story_pieces_start ON story_pieces(session, start);
CREATE TABLE story_chunks (
    id          INTEGER PRIMARY KEY,
    session     INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    relief      INTEGER NOT NULL,
    start       INTEGER NOT NULL,
    end         INTEGER NOT NULL,
    tokens      INTEGER NOT NULL,
    content     TEXT NOT NULL,
    archived_at TEXT NOT NULL
);
CREATE INDEX story_chunks_start ON story_chunks(session, start);
CREATE TABLE story_reliefs (
    id            INTEGER PRIMARY KEY,
    session       INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    at            TEXT NOT NULL,
    interaction   INTEGER NOT NULL,
    tokens_before INTEGER NOT NULL,
    tokens_after  INTEGER NOT NULL,
    chunks        INTEGER NOT NULL,
    seconds       REAL NOT NULL
);
CREATE INDEX story_reliefs_session ON story_reliefs(session);
CREATE TABLE story_passages (
    id        INTEGER PRIMARY KEY,
    session   INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    start     INTEGER NOT NULL,
    end       INTEGER NOT NULL,
    token_pos INTEGER NOT NULL,
    entities  TEXT NOT NULL DEFAULT '[]',
    embedding BLOB NOT NULL
);
CREATE INDEX story_passages_session ON story_passages(session, id);
CREATE VIRTUAL TABLE story_passages_fts USING fts5(
    text, tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TABLE story_entities (
    id          INTEGER PRIMARY KEY,
    session     INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    parts       TEXT NOT NULL,
    person      REAL NOT NULL DEFAULT 0,
    place       REAL NOT NULL DEFAULT 0,
    mentions    INTEGER NOT NULL DEFAULT 0,
    lowercase   INTEGER NOT NULL DEFAULT 0,
    first_pos   INTEGER NOT NULL,
    last_pos    INTEGER NOT NULL,
    first_seen  TEXT NOT NULL,
    recent_seen TEXT NOT NULL DEFAULT '[]',
    description TEXT
);
CREATE INDEX story_entities_session ON story_entities(session, mentions);
CREATE TABLE story_aliases (
    session INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    key     TEXT NOT NULL,
    alias   TEXT NOT NULL,
    entity  INTEGER NOT NULL REFERENCES story_entities(id) ON DELETE CASCADE,
    count   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session, key)
);
CREATE INDEX story_aliases_entity ON story_aliases(entity);
CREATE TABLE story_relations (
    session INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    a       INTEGER NOT NULL REFERENCES story_entities(id) ON DELETE CASCADE,
    b       INTEGER NOT NULL REFERENCES story_entities(id) ON DELETE CASCADE,
    kind    TEXT NOT NULL,
    weight  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (a, b, kind)
);
CREATE INDEX story_relations_b ON story_relations(b);
CREATE TABLE story_threads (
    id          INTEGER PRIMARY KEY,
    session     INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL,
    source      TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    entities    TEXT NOT NULL DEFAULT '[]',
    events      TEXT NOT NULL DEFAULT '[]',
    opened_pos  INTEGER NOT NULL,
    updated_pos INTEGER NOT NULL,
    UNIQUE (session, name)
);
"""

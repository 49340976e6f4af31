"""The story engine's tables.

A story session is one growing text (the stream): every interaction appends its pieces, the
window is the stream's tail, and relief moves the oldest complete paragraphs of the window into
archived chunks. Passages of the stream are embedded as they arrive, with the entities they
mention; the entity graph (characters, places, their aliases and relations) and plot threads
belong to their session and go with it.
"""

from loci.storage.databases.schema import Schema

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

#: Migration 15: the cast as names and evidence (`loci.toolsets.story.graph`). Each name the story met
#: keeps the cues of its mentions; the words the story writes, and which names met in one
#: sentence or paragraph, are counted; the writer's corrections are kept in order. Who is who
#: (`person`, `kind`) is worked out from these and can be worked out again. A session written
#: before keeps its cast: each alias becomes a name of its entity. Passages say whether they
#: are part of the writer's prompt.
CAST_TABLES = """
CREATE TABLE story_names (
    id          INTEGER PRIMARY KEY,
    session     INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    key         TEXT NOT NULL,
    written     TEXT NOT NULL,
    mentions    INTEGER NOT NULL DEFAULT 0,
    ner_person  INTEGER NOT NULL DEFAULT 0,
    ner_place   INTEGER NOT NULL DEFAULT 0,
    ner_other   INTEGER NOT NULL DEFAULT 0,
    said        INTEGER NOT NULL DEFAULT 0,
    acts        INTEGER NOT NULL DEFAULT 0,
    place_word  INTEGER NOT NULL DEFAULT 0,
    article     INTEGER NOT NULL DEFAULT 0,
    male        INTEGER NOT NULL DEFAULT 0,
    female      INTEGER NOT NULL DEFAULT 0,
    first_pos   INTEGER NOT NULL DEFAULT 0,
    first_seen  TEXT NOT NULL DEFAULT '',
    recent_seen TEXT NOT NULL DEFAULT '[]',
    person      INTEGER,
    kind        TEXT NOT NULL DEFAULT 'unknown',
    UNIQUE (session, key)
);
CREATE INDEX story_names_person ON story_names(session, person);
INSERT INTO story_names (session, key, written, mentions, ner_person, ner_place, first_pos,
    first_seen, recent_seen, kind)
    SELECT a.session, a.key, a.alias, a.count,
        CASE WHEN e.person >= e.place AND e.person > 0 THEN a.count ELSE 0 END,
        CASE WHEN e.place > e.person THEN a.count ELSE 0 END,
        e.first_pos, e.first_seen, e.recent_seen,
        CASE WHEN e.person <= 0 AND e.place <= 0 THEN 'unknown'
             WHEN e.person >= e.place THEN 'character' ELSE 'place' END
    FROM story_aliases a JOIN story_entities e ON e.id = a.entity;
CREATE TEMP TABLE story_entity_names AS
    SELECT a.entity AS entity, (SELECT n.id FROM story_aliases b JOIN story_names n
        ON n.session = b.session AND n.key = b.key WHERE b.entity = a.entity
        ORDER BY b.count DESC, n.id LIMIT 1) AS name
    FROM story_aliases a GROUP BY a.entity;
UPDATE story_names SET person = (SELECT m.name FROM story_aliases a JOIN story_entity_names m
    ON m.entity = a.entity WHERE a.session = story_names.session AND a.key = story_names.key);
UPDATE story_passages SET entities = coalesce((SELECT json_group_array(m.name)
    FROM json_each(story_passages.entities) j JOIN story_entity_names m ON m.entity = j.value),
    '[]');
CREATE TABLE story_meetings (
    session    INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    a          INTEGER NOT NULL REFERENCES story_names(id) ON DELETE CASCADE,
    b          INTEGER NOT NULL REFERENCES story_names(id) ON DELETE CASCADE,
    paragraph  INTEGER NOT NULL DEFAULT 0,
    sentence   INTEGER NOT NULL DEFAULT 0,
    apposition INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (a, b)
) WITHOUT ROWID;
CREATE INDEX story_meetings_b ON story_meetings(b);
INSERT INTO story_meetings (session, a, b, paragraph)
    SELECT r.session, min(x.name, y.name), max(x.name, y.name), sum(r.weight)
    FROM story_relations r JOIN story_entity_names x ON x.entity = r.a
    JOIN story_entity_names y ON y.entity = r.b
    WHERE x.name IS NOT NULL AND y.name IS NOT NULL AND x.name != y.name
    GROUP BY r.session, min(x.name, y.name), max(x.name, y.name);
DROP TABLE story_entity_names;
DROP TABLE story_relations;
DROP TABLE story_aliases;
DROP TABLE story_entities;
CREATE TABLE story_words (
    session INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    word    TEXT NOT NULL,
    lower   INTEGER NOT NULL DEFAULT 0,
    inside  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session, word)
) WITHOUT ROWID;
CREATE TABLE story_corrections (
    id          INTEGER PRIMARY KEY,
    session     INTEGER NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    action      TEXT NOT NULL,
    name        TEXT NOT NULL,
    other       TEXT,
    interaction INTEGER NOT NULL,
    at          TEXT NOT NULL
);
CREATE INDEX story_corrections_session ON story_corrections(session, id);
ALTER TABLE story_passages ADD COLUMN prompt INTEGER NOT NULL DEFAULT 0;
UPDATE story_passages SET prompt = 1 WHERE EXISTS (SELECT 1 FROM story_pieces p
    WHERE p.session = story_passages.session AND p.role = 'user'
    AND p.start <= story_passages.start AND story_passages.start < p.start + length(p.content));
"""

#: The same tables on PostgreSQL, as SQLite's stand after both migrations; passage texts are
#: kept in a table of their own (SQLite keeps them in the FTS5 table) and indexed in the
#: store's keyword postings.
POSTGRES_TABLES = """
CREATE TABLE story_sessions (
    id            BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    settings      TEXT NOT NULL,
    stream_chars  BIGINT NOT NULL DEFAULT 0,
    stream_tokens BIGINT NOT NULL DEFAULT 0,
    window_start  BIGINT NOT NULL DEFAULT 0,
    window_tokens BIGINT NOT NULL DEFAULT 0,
    interactions  BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE story_pieces (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    session     BIGINT NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    interaction BIGINT NOT NULL,
    role        TEXT NOT NULL,
    start       BIGINT NOT NULL,
    token_start BIGINT NOT NULL,
    content     TEXT NOT NULL
);
CREATE INDEX story_pieces_start ON story_pieces(session, start);
CREATE TABLE story_chunks (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    session     BIGINT NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    relief      BIGINT NOT NULL,
    start       BIGINT NOT NULL,
    "end"       BIGINT NOT NULL,
    tokens      BIGINT NOT NULL,
    content     TEXT NOT NULL,
    archived_at TEXT NOT NULL
);
CREATE INDEX story_chunks_start ON story_chunks(session, start);
CREATE TABLE story_reliefs (
    id            BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    session       BIGINT NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    at            TEXT NOT NULL,
    interaction   BIGINT NOT NULL,
    tokens_before BIGINT NOT NULL,
    tokens_after  BIGINT NOT NULL,
    chunks        BIGINT NOT NULL,
    seconds       DOUBLE PRECISION NOT NULL
);
CREATE INDEX story_reliefs_session ON story_reliefs(session);
CREATE TABLE story_passages (
    id        BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    session   BIGINT NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    start     BIGINT NOT NULL,
    "end"     BIGINT NOT NULL,
    token_pos BIGINT NOT NULL,
    entities  TEXT NOT NULL DEFAULT '[]',
    embedding BYTEA NOT NULL,
    prompt    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX story_passages_session ON story_passages(session, id);
CREATE TABLE story_passage_texts (
    id   BIGINT PRIMARY KEY REFERENCES story_passages(id) ON DELETE CASCADE,
    text TEXT NOT NULL
);
CREATE TABLE story_threads (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    session     BIGINT NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL,
    source      TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    entities    TEXT NOT NULL DEFAULT '[]',
    events      TEXT NOT NULL DEFAULT '[]',
    opened_pos  BIGINT NOT NULL,
    updated_pos BIGINT NOT NULL,
    UNIQUE (session, name)
);
CREATE TABLE story_names (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    session     BIGINT NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    key         TEXT NOT NULL,
    written     TEXT NOT NULL,
    mentions    BIGINT NOT NULL DEFAULT 0,
    ner_person  BIGINT NOT NULL DEFAULT 0,
    ner_place   BIGINT NOT NULL DEFAULT 0,
    ner_other   BIGINT NOT NULL DEFAULT 0,
    said        BIGINT NOT NULL DEFAULT 0,
    acts        BIGINT NOT NULL DEFAULT 0,
    place_word  BIGINT NOT NULL DEFAULT 0,
    article     BIGINT NOT NULL DEFAULT 0,
    male        BIGINT NOT NULL DEFAULT 0,
    female      BIGINT NOT NULL DEFAULT 0,
    first_pos   BIGINT NOT NULL DEFAULT 0,
    first_seen  TEXT NOT NULL DEFAULT '',
    recent_seen TEXT NOT NULL DEFAULT '[]',
    person      BIGINT,
    kind        TEXT NOT NULL DEFAULT 'unknown',
    UNIQUE (session, key)
);
CREATE INDEX story_names_person ON story_names(session, person);
CREATE TABLE story_meetings (
    session    BIGINT NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    a          BIGINT NOT NULL REFERENCES story_names(id) ON DELETE CASCADE,
    b          BIGINT NOT NULL REFERENCES story_names(id) ON DELETE CASCADE,
    paragraph  BIGINT NOT NULL DEFAULT 0,
    sentence   BIGINT NOT NULL DEFAULT 0,
    apposition BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (a, b)
);
CREATE INDEX story_meetings_b ON story_meetings(b);
CREATE TABLE story_words (
    session BIGINT NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    word    TEXT NOT NULL,
    lower   BIGINT NOT NULL DEFAULT 0,
    inside  BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (session, word)
);
CREATE TABLE story_corrections (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    session     BIGINT NOT NULL REFERENCES story_sessions(id) ON DELETE CASCADE,
    action      TEXT NOT NULL,
    name        TEXT NOT NULL,
    other       TEXT,
    interaction BIGINT NOT NULL,
    at          TEXT NOT NULL
);
CREATE INDEX story_corrections_session ON story_corrections(session, id);
"""


#: The names a correction brought (an alias, a new display name), so that undoing it takes
#: them away again with the mentions read for them.
CORRECTION_NAMES = """
ALTER TABLE story_corrections ADD COLUMN created TEXT NOT NULL DEFAULT '[]';
"""
#: The names a split left together.
SPLIT_KEPT = """
ALTER TABLE story_corrections ADD COLUMN kept TEXT NOT NULL DEFAULT '[]';
"""

#: The names a split took with the name split off (its own forms: "Dick" with "Richard").
SPLIT_ALONG = """
ALTER TABLE story_corrections ADD COLUMN along TEXT NOT NULL DEFAULT '[]';
"""

#: Each story numbers its own corrections, and never gives a number twice: a number the writer
#: noted still names the same correction, or none, after undoing others. The corrections kept
#: so far take their order in their story.
CORRECTION_NUMBERS = """
ALTER TABLE story_corrections ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
UPDATE story_corrections SET number = (SELECT count(*) FROM story_corrections c
    WHERE c.session = story_corrections.session AND c.id <= story_corrections.id);
ALTER TABLE story_sessions ADD COLUMN corrections_made INTEGER NOT NULL DEFAULT 0;
UPDATE story_sessions SET corrections_made = (SELECT count(*) FROM story_corrections c
    WHERE c.session = story_sessions.id);
CREATE UNIQUE INDEX story_corrections_number ON story_corrections(session, number);
"""

#: How often each name is called out in dialogue ('"What is this, Perkins?"'): a person cue.
NAME_ADDRESSED = "ALTER TABLE story_names ADD COLUMN addressed INTEGER NOT NULL DEFAULT 0;"

#: How often each name is given as someone's name ("It's named Captain"): a person cue.
NAME_NAMED = """
ALTER TABLE story_names ADD COLUMN named INTEGER NOT NULL DEFAULT 0;
"""

#: Names the story says are one person's ("Provis", "Magwitch"): `loci.toolsets.story.stated`.
MEETING_STATED = "ALTER TABLE story_meetings ADD COLUMN stated INTEGER NOT NULL DEFAULT 0;"
#: Names the story tells apart as two people's: `loci.toolsets.story.generations`.
MEETING_PARTED = "ALTER TABLE story_meetings ADD COLUMN parted INTEGER NOT NULL DEFAULT 0;"
#: Who made each correction: the writer, or loci accepting a suggestion it was sure of when it
#: imported the manuscript (`loci.toolsets.story.sure_suggestions`).
CORRECTION_BY = "ALTER TABLE story_corrections ADD COLUMN made_by TEXT NOT NULL DEFAULT 'writer';"

#: The migrations both engines take after their first tables, in order.
LATER = (NAME_ADDRESSED, NAME_NAMED, SPLIT_ALONG, MEETING_STATED, MEETING_PARTED, CORRECTION_BY)

STORY_SCHEMA = Schema(
    owner="story",
    migrations=(
        STORY_TABLES,
        CAST_TABLES,
        CORRECTION_NAMES,
        SPLIT_KEPT,
        CORRECTION_NUMBERS,
        *LATER,
    ),
    legacy=(13, 15),
    postgres=(POSTGRES_TABLES, CORRECTION_NAMES, SPLIT_KEPT, CORRECTION_NUMBERS, *LATER),
)

"""The memory tables, which storage owns: memories with their tags, keyword index (FTS5),
change log, times, sequences (a memory's place in a conversation, story or log), passages of
long memories and merged ids.
"""

from __future__ import annotations

from loci.storage.databases.schema import Schema
from loci.storage.memory_tables.postgres import MEMORY_TABLES

MEMORY_SCHEMA = Schema(
    owner="memory",
    migrations=(
        # 1 (1 in the single list): memories, namespaces, tags, keyword index, vector change log.
        """
        CREATE TABLE meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TABLE namespaces (
            name       TEXT PRIMARY KEY,
            created_at TEXT NOT NULL
        );
        CREATE TABLE memories (
            seq           INTEGER PRIMARY KEY,
            id            TEXT NOT NULL UNIQUE,
            namespace     TEXT NOT NULL REFERENCES namespaces(name) ON UPDATE CASCADE,
            content       TEXT NOT NULL,
            content_hash  TEXT NOT NULL,
            tags          TEXT NOT NULL DEFAULT '[]',
            importance    REAL NOT NULL CHECK (importance BETWEEN 0 AND 1),
            source        TEXT NOT NULL,
            metadata      TEXT NOT NULL DEFAULT '{}',
            created_at    TEXT NOT NULL,
            updated_at    TEXT NOT NULL,
            last_accessed TEXT NOT NULL,
            access_count  INTEGER NOT NULL DEFAULT 0,
            embedding     BLOB NOT NULL
        );
        CREATE INDEX memories_namespace_created ON memories(namespace, created_at);
        CREATE INDEX memories_namespace_hash ON memories(namespace, content_hash);
        CREATE TABLE memory_tags (
            tag        TEXT NOT NULL,
            memory_seq INTEGER NOT NULL REFERENCES memories(seq) ON DELETE CASCADE,
            PRIMARY KEY (tag, memory_seq)
        ) WITHOUT ROWID;
        CREATE INDEX memory_tags_memory ON memory_tags(memory_seq);

        CREATE VIRTUAL TABLE memories_fts USING fts5(
            content, content='memories', content_rowid='seq',
            tokenize='porter unicode61 remove_diacritics 2'
        );
        -- Every change to a memory's vector is logged in the same transaction, so that each
        -- process can bring its in-memory vector index up to date with the others' writes.
        CREATE TABLE vector_log (
            seq        INTEGER PRIMARY KEY AUTOINCREMENT,
            memory_seq INTEGER NOT NULL,
            op         TEXT NOT NULL CHECK (op IN ('upsert', 'delete'))
        );

        CREATE TRIGGER memories_after_insert AFTER INSERT ON memories BEGIN
            INSERT INTO memories_fts(rowid, content) VALUES (new.seq, new.content);
            INSERT INTO vector_log(memory_seq, op) VALUES (new.seq, 'upsert');
        END;
        CREATE TRIGGER memories_after_delete AFTER DELETE ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', old.seq, old.content);
            INSERT INTO vector_log(memory_seq, op) VALUES (old.seq, 'delete');
        END;
        CREATE TRIGGER memories_after_update_content AFTER UPDATE OF content ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', old.seq, old.content);
            INSERT INTO memories_fts(rowid, content) VALUES (new.seq, new.content);
        END;
        CREATE TRIGGER memories_after_update_vector AFTER UPDATE OF embedding, namespace ON memories BEGIN
            INSERT INTO vector_log(memory_seq, op) VALUES (new.seq, 'upsert');
        END;
        """,
        # 2 (2 in the single list): the conversation turns, so that looking up a hit's neighbouring turns
        # costs nothing in a store that holds none.
        """
        CREATE INDEX memories_conversation_turns ON memories(seq)
            WHERE json_extract(metadata, '$.conversation') IS NOT NULL;
        """,
        # 3 (5 in the single list): when each memory happened (a conversation turn's message time, else when
        # it was stored), so that recall can find the memories of a period a question names without a scan.
        # The expression must stay the same as `timeline.MEMORY_TIME` for the planner to use it.
        """
        CREATE INDEX memories_time ON memories(coalesce(CASE WHEN json_extract(metadata,
            '$.conversation') IS NOT NULL THEN json_extract(metadata, '$.timestamp') END, created_at));
        """,
        # 4 (6 in the single list): each conversation thread (a chat session) as one keyword document, so that
        # recall can tell which sessions a question's words are spread over. Triggers mark a thread stale when
        # one of its turns changes; `threads.refresh_stale` rebuilds it before the commit. The key expressions
        # must stay the same as `threads.CONVERSATION` and `threads.SESSION`.
        """
        CREATE TABLE conversation_threads (
            id           INTEGER PRIMARY KEY,
            namespace    TEXT NOT NULL,
            conversation TEXT NOT NULL,
            session      TEXT NOT NULL,
            stale        INTEGER NOT NULL DEFAULT 1,
            UNIQUE (namespace, conversation, session)
        );
        CREATE INDEX conversation_threads_stale ON conversation_threads(id) WHERE stale = 1;
        CREATE VIRTUAL TABLE threads_fts USING fts5(
            content, tokenize='porter unicode61 remove_diacritics 2'
        );
        CREATE INDEX memories_thread ON memories(
            namespace, CAST(json_extract(metadata, '$.conversation') AS TEXT),
            coalesce(CAST(json_extract(metadata, '$.session_id') AS TEXT), ''), seq
        ) WHERE json_extract(metadata, '$.conversation') IS NOT NULL;

        CREATE TRIGGER memories_thread_insert AFTER INSERT ON memories
        WHEN json_extract(new.metadata, '$.conversation') IS NOT NULL BEGIN
            INSERT INTO conversation_threads(namespace, conversation, session) VALUES (
                new.namespace, CAST(json_extract(new.metadata, '$.conversation') AS TEXT),
                coalesce(CAST(json_extract(new.metadata, '$.session_id') AS TEXT), '')
            ) ON CONFLICT (namespace, conversation, session) DO UPDATE SET stale = 1;
        END;
        CREATE TRIGGER memories_thread_delete AFTER DELETE ON memories
        WHEN json_extract(old.metadata, '$.conversation') IS NOT NULL BEGIN
            UPDATE conversation_threads SET stale = 1 WHERE namespace = old.namespace
                AND conversation = CAST(json_extract(old.metadata, '$.conversation') AS TEXT)
                AND session = coalesce(CAST(json_extract(old.metadata, '$.session_id') AS TEXT), '');
        END;
        CREATE TRIGGER memories_thread_update_old AFTER UPDATE OF content, namespace, metadata
        ON memories WHEN json_extract(old.metadata, '$.conversation') IS NOT NULL BEGIN
            UPDATE conversation_threads SET stale = 1 WHERE namespace = old.namespace
                AND conversation = CAST(json_extract(old.metadata, '$.conversation') AS TEXT)
                AND session = coalesce(CAST(json_extract(old.metadata, '$.session_id') AS TEXT), '');
        END;
        CREATE TRIGGER memories_thread_update_new AFTER UPDATE OF content, namespace, metadata
        ON memories WHEN json_extract(new.metadata, '$.conversation') IS NOT NULL BEGIN
            INSERT INTO conversation_threads(namespace, conversation, session) VALUES (
                new.namespace, CAST(json_extract(new.metadata, '$.conversation') AS TEXT),
                coalesce(CAST(json_extract(new.metadata, '$.session_id') AS TEXT), '')
            ) ON CONFLICT (namespace, conversation, session) DO UPDATE SET stale = 1;
        END;

        INSERT OR IGNORE INTO conversation_threads(namespace, conversation, session)
            SELECT DISTINCT namespace, CAST(json_extract(metadata, '$.conversation') AS TEXT),
                coalesce(CAST(json_extract(metadata, '$.session_id') AS TEXT), '')
            FROM memories WHERE json_extract(metadata, '$.conversation') IS NOT NULL;
        """,
        # 5 (7 in the single list): each conversation turn's thread and speaker in plain columns, so that
        # ranking reads them by seq without parsing metadata JSON. The thread triggers of migration 6 are
        # replaced by ones that also keep this table, and the partial index of migration 2, which only served
        # the JSON lookups, goes.
        """
        DROP INDEX memories_conversation_turns;
        CREATE TABLE conversation_turns (
            seq     INTEGER PRIMARY KEY,
            thread  INTEGER NOT NULL,
            speaker TEXT
        );
        DROP TRIGGER memories_thread_insert;
        DROP TRIGGER memories_thread_delete;
        DROP TRIGGER memories_thread_update_old;
        DROP TRIGGER memories_thread_update_new;

        CREATE TRIGGER memories_thread_insert AFTER INSERT ON memories
        WHEN json_extract(new.metadata, '$.conversation') IS NOT NULL BEGIN
            INSERT INTO conversation_threads(namespace, conversation, session) VALUES (
                new.namespace, CAST(json_extract(new.metadata, '$.conversation') AS TEXT),
                coalesce(CAST(json_extract(new.metadata, '$.session_id') AS TEXT), '')
            ) ON CONFLICT (namespace, conversation, session) DO UPDATE SET stale = 1;
            INSERT INTO conversation_turns(seq, thread, speaker)
                SELECT new.seq, id, json_extract(new.metadata, '$.speaker')
                FROM conversation_threads WHERE namespace = new.namespace
                AND conversation = CAST(json_extract(new.metadata, '$.conversation') AS TEXT)
                AND session = coalesce(CAST(json_extract(new.metadata, '$.session_id') AS TEXT), '');
        END;
        CREATE TRIGGER memories_thread_delete AFTER DELETE ON memories
        WHEN json_extract(old.metadata, '$.conversation') IS NOT NULL BEGIN
            UPDATE conversation_threads SET stale = 1 WHERE namespace = old.namespace
                AND conversation = CAST(json_extract(old.metadata, '$.conversation') AS TEXT)
                AND session = coalesce(CAST(json_extract(old.metadata, '$.session_id') AS TEXT), '');
            DELETE FROM conversation_turns WHERE seq = old.seq;
        END;
        -- One trigger, not one for the old row and one for the new: the order in which SQLite
        -- fires several triggers is not defined, and the old row's turn must go before the new.
        CREATE TRIGGER memories_thread_update AFTER UPDATE OF content, namespace, metadata ON memories
        WHEN json_extract(old.metadata, '$.conversation') IS NOT NULL
            OR json_extract(new.metadata, '$.conversation') IS NOT NULL BEGIN
            UPDATE conversation_threads SET stale = 1 WHERE namespace = old.namespace
                AND conversation = CAST(json_extract(old.metadata, '$.conversation') AS TEXT)
                AND session = coalesce(CAST(json_extract(old.metadata, '$.session_id') AS TEXT), '');
            DELETE FROM conversation_turns WHERE seq = old.seq;
            INSERT INTO conversation_threads(namespace, conversation, session)
                SELECT new.namespace, CAST(json_extract(new.metadata, '$.conversation') AS TEXT),
                    coalesce(CAST(json_extract(new.metadata, '$.session_id') AS TEXT), '')
                WHERE json_extract(new.metadata, '$.conversation') IS NOT NULL
                ON CONFLICT (namespace, conversation, session) DO UPDATE SET stale = 1;
            INSERT INTO conversation_turns(seq, thread, speaker)
                SELECT new.seq, id, json_extract(new.metadata, '$.speaker')
                FROM conversation_threads WHERE namespace = new.namespace
                AND conversation = CAST(json_extract(new.metadata, '$.conversation') AS TEXT)
                AND session = coalesce(CAST(json_extract(new.metadata, '$.session_id') AS TEXT), '');
        END;

        -- Processes mirror where turns sit (`turns.TurnDirectory`) from the vector change log.
        CREATE TRIGGER memories_after_update_metadata AFTER UPDATE OF metadata ON memories BEGIN
            INSERT INTO vector_log(memory_seq, op) VALUES (new.seq, 'upsert');
        END;

        INSERT INTO conversation_turns(seq, thread, speaker)
            SELECT m.seq, t.id, json_extract(m.metadata, '$.speaker')
            FROM memories m JOIN conversation_threads t ON t.namespace = m.namespace
            AND t.conversation = CAST(json_extract(m.metadata, '$.conversation') AS TEXT)
            AND t.session = coalesce(CAST(json_extract(m.metadata, '$.session_id') AS TEXT), '')
            WHERE json_extract(m.metadata, '$.conversation') IS NOT NULL;
        """,
        # 6 (8 in the single list): content changes are logged too, so that each process's keyword mirror
        # (`keyword_mirror.KeywordMirror`) follows them (loci itself re-embeds what it rewrites).
        """
        CREATE TRIGGER memories_after_update_content_log AFTER UPDATE OF content ON memories BEGIN
            INSERT INTO vector_log(memory_seq, op) VALUES (new.seq, 'upsert');
        END;
        """,
        # 7 (9 in the single list): so are changes of the fields that each process's mirror of filter fields
        # (`facets.MemoryFacets`) holds. Tags are written with their memory's `tags` column, in the
        # same transaction as their `memory_tags` rows.
        """
        CREATE TRIGGER memories_after_update_facets AFTER UPDATE OF tags, importance, source,
            created_at, updated_at ON memories BEGIN
            INSERT INTO vector_log(memory_seq, op) VALUES (new.seq, 'upsert');
        END;
        """,
        # 8 (11 in the single list): sequences (a conversation session, a story, a log) as records of their
        # own, set by explicit arguments: a memory's place in one (`sequence_items`) and when it happened
        # (`occurred_at`). They replace the conversation turns read from metadata JSON (migrations 2, 5, 6,
        # 7): the turns loci's importer wrote (source 'conversation') move over, ordered by message time;
        # other memories keep their metadata untouched and are plain notes.
        """
        CREATE TABLE sequences (
            id        INTEGER PRIMARY KEY,
            namespace TEXT NOT NULL REFERENCES namespaces(name) ON UPDATE CASCADE ON DELETE CASCADE,
            name      TEXT NOT NULL,
            kind      TEXT NOT NULL,
            stale     INTEGER NOT NULL DEFAULT 1,
            UNIQUE (namespace, name)
        );
        CREATE INDEX sequences_stale ON sequences(id) WHERE stale = 1;
        CREATE TABLE sequence_items (
            seq      INTEGER PRIMARY KEY REFERENCES memories(seq) ON DELETE CASCADE,
            sequence INTEGER NOT NULL REFERENCES sequences(id) ON DELETE CASCADE,
            position REAL NOT NULL,
            actor    TEXT
        );
        CREATE UNIQUE INDEX sequence_items_order ON sequence_items(sequence, position);
        CREATE VIRTUAL TABLE sequences_fts USING fts5(
            content, tokenize='porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER sequence_items_after_insert AFTER INSERT ON sequence_items BEGIN
            UPDATE sequences SET stale = 1 WHERE id = new.sequence;
        END;
        CREATE TRIGGER sequence_items_after_delete AFTER DELETE ON sequence_items BEGIN
            UPDATE sequences SET stale = 1 WHERE id = old.sequence;
        END;
        CREATE TRIGGER memories_after_update_content_sequence AFTER UPDATE OF content ON memories
        BEGIN
            UPDATE sequences SET stale = 1
                WHERE id = (SELECT sequence FROM sequence_items WHERE seq = new.seq);
        END;
        ALTER TABLE memories ADD COLUMN occurred_at TEXT;

        INSERT INTO sequences(id, namespace, name, kind)
            SELECT t.id, t.namespace,
                t.conversation || CASE WHEN t.session = '' THEN '' ELSE '/' || t.session END,
                'conversation'
            FROM conversation_threads t
            WHERE EXISTS (SELECT 1 FROM conversation_turns c JOIN memories m ON m.seq = c.seq
                WHERE c.thread = t.id AND m.source = 'conversation');
        INSERT INTO sequence_items(seq, sequence, position, actor)
            SELECT c.seq, c.thread, row_number() OVER (PARTITION BY c.thread
                ORDER BY json_extract(m.metadata, '$.timestamp'), c.seq) - 1, c.speaker
            FROM conversation_turns c JOIN memories m ON m.seq = c.seq
            WHERE m.source = 'conversation';
        UPDATE memories SET occurred_at = json_extract(metadata, '$.timestamp')
            WHERE seq IN (SELECT seq FROM sequence_items)
            AND json_type(metadata, '$.timestamp') = 'text';

        DROP TRIGGER memories_thread_insert;
        DROP TRIGGER memories_thread_delete;
        DROP TRIGGER memories_thread_update;
        DROP INDEX memories_thread;
        DROP INDEX memories_time;
        DROP TABLE conversation_turns;
        DROP TABLE conversation_threads;
        DROP TABLE threads_fts;
        CREATE INDEX memories_time ON memories(coalesce(occurred_at, created_at));
        """,
        # 9 (12 in the single list): passages of long memories (`memory_tables.passages`):
        # spans embedded on their own, so that the vector search sees every word; deleted
        # with their memory. `loci reindex` embeds the passages of memories stored before.
        """
        CREATE TABLE passages (
            id        INTEGER PRIMARY KEY,
            seq       INTEGER NOT NULL REFERENCES memories(seq) ON DELETE CASCADE,
            start     INTEGER NOT NULL,
            end       INTEGER NOT NULL,
            embedding BLOB NOT NULL
        );
        CREATE INDEX passages_seq ON passages(seq);
        """,
        # 10 (14 in the single list): the lifecycle: when `decay` last lowered a memory's importance (decay
        # runs from there, so running it twice changes nothing the second time), and the ids of memories
        # `consolidate` merged, which keep resolving to the memory they were merged into.
        """
        ALTER TABLE memories ADD COLUMN decayed_at TEXT;
        CREATE TABLE memory_aliases (
            id  TEXT PRIMARY KEY,
            seq INTEGER NOT NULL REFERENCES memories(seq) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX memory_aliases_seq ON memory_aliases(seq);
        """,
        # 11: vectors in their own table, so that a scan of the memories (a filter SQLite
        # answers, a mirror's load) reads rows of text and fields, not 1.5 KB of vector each.
        """
        CREATE TABLE memory_vectors (
            seq       INTEGER PRIMARY KEY REFERENCES memories(seq) ON DELETE CASCADE,
            embedding BLOB NOT NULL
        );
        INSERT INTO memory_vectors(seq, embedding) SELECT seq, embedding FROM memories;
        DROP TRIGGER memories_after_update_vector;
        CREATE TRIGGER memories_after_update_namespace AFTER UPDATE OF namespace ON memories BEGIN
            INSERT INTO vector_log(memory_seq, op) VALUES (new.seq, 'upsert');
        END;
        CREATE TRIGGER memory_vectors_after_update AFTER UPDATE OF embedding ON memory_vectors
        BEGIN
            INSERT INTO vector_log(memory_seq, op) VALUES (new.seq, 'upsert');
        END;
        ALTER TABLE memories DROP COLUMN embedding;
        """,
        # 12: a namespace's memories by when they happened, for browsing one namespace page by
        # page (`storage.memory_tables.pages`) without sorting the whole namespace.
        """
        CREATE INDEX memories_namespace_time ON memories(namespace, coalesce(occurred_at, created_at));
        """,
        # 13: facts in time (`memory_tables.validity`): when a memory was true, what replaced
        # it, and the pairs flagged as contradicting each other. Rows only for the memories
        # something was said of; every other one is true from when it happened, still.
        """
        CREATE TABLE memory_validity (
            seq           INTEGER PRIMARY KEY REFERENCES memories(seq) ON DELETE CASCADE,
            valid_from    TEXT,
            valid_until   TEXT,
            superseded_by INTEGER REFERENCES memories(seq) ON DELETE SET NULL
        );
        CREATE INDEX memory_validity_successor ON memory_validity(superseded_by);
        CREATE TABLE memory_conflicts (
            older    INTEGER NOT NULL REFERENCES memories(seq) ON DELETE CASCADE,
            newer    INTEGER NOT NULL REFERENCES memories(seq) ON DELETE CASCADE,
            reason   TEXT NOT NULL,
            state    TEXT NOT NULL CHECK (state IN ('open', 'dismissed', 'resolved')),
            noted_at TEXT NOT NULL,
            PRIMARY KEY (older, newer)
        );
        CREATE INDEX memory_conflicts_newer ON memory_conflicts(newer);
        """,
    ),
    legacy=(1, 2, 5, 6, 7, 8, 9, 11, 12, 14),
    postgres=MEMORY_TABLES,
)

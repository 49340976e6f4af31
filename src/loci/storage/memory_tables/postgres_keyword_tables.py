"""The tables of the keyword postings (see `keywords.py`): plain DDL, so that the memory
tables' migrations can be declared without the PostgreSQL driver installed."""

KEYWORD_TABLES = """
CREATE TABLE keyword_corpora (
    corpus INTEGER PRIMARY KEY,
    docs   BIGINT NOT NULL,
    tokens BIGINT NOT NULL
);
CREATE TABLE keyword_docs (
    corpus INTEGER NOT NULL,
    doc    BIGINT NOT NULL,
    tokens INTEGER NOT NULL,
    PRIMARY KEY (corpus, doc)
);
CREATE TABLE keyword_terms (
    corpus INTEGER NOT NULL,
    term   TEXT NOT NULL,
    docs   BIGINT NOT NULL,
    PRIMARY KEY (corpus, term)
);
CREATE TABLE keyword_postings (
    corpus    INTEGER NOT NULL,
    term      TEXT NOT NULL,
    doc       BIGINT NOT NULL,
    tf        INTEGER NOT NULL,
    tokens    INTEGER NOT NULL,
    positions INTEGER[] NOT NULL,
    PRIMARY KEY (corpus, term, doc)
);
CREATE INDEX keyword_postings_doc ON keyword_postings (corpus, doc);
CREATE TABLE keyword_stale (
    corpus INTEGER NOT NULL,
    doc    BIGINT NOT NULL,
    PRIMARY KEY (corpus, doc)
);
"""
#: The bounds of each term's scores, for search to skip what cannot make the top (a migration:
#: stores made before it get their bounds from their postings).
KEYWORD_BOUNDS = """
ALTER TABLE keyword_terms ADD COLUMN max_tf INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN min_tokens INTEGER NOT NULL DEFAULT 2147483647;
UPDATE keyword_terms t SET max_tf = b.max_tf, min_tokens = b.min_tokens
    FROM (SELECT corpus, term, max(tf) AS max_tf, min(tokens) AS min_tokens
          FROM keyword_postings GROUP BY corpus, term) b
    WHERE b.corpus = t.corpus AND b.term = t.term;
ALTER TABLE keyword_terms ALTER COLUMN max_tf DROP DEFAULT,
    ALTER COLUMN min_tokens DROP DEFAULT;
CREATE INDEX keyword_postings_impact ON keyword_postings (corpus, term, tf DESC, tokens, doc);
"""

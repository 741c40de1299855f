-- Full-text search of session history on PostgreSQL (on SQLite: the FTS5 table of 20261130000000_history).
-- One row per searchable document (a title, a message, a plan version) holding only its words as a tsvector,
-- no text, as the contentless FTS5 table holds none. The app makes the lexemes (lib/session/search-index-pg.ts)
-- so that matching follows neither a text search configuration's parser (which keeps "foo.bar.com" or
-- "/usr/bin" as one token) nor the database's locale (which decides what lower() does to "É").
-- Rows are keyed by session, not by "Session"."searchKey" (SQLite's rowid scheme): the identity column needs no
-- MAX()+1, which would race under READ COMMITTED, and the rows go with their session.
CREATE TABLE "SessionSearch" (
    "sessionId" TEXT NOT NULL,
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "terms" TSVECTOR NOT NULL,

    -- Leads with sessionId: a listing probes one session's documents, a delete drops them.
    CONSTRAINT "SessionSearch_pkey" PRIMARY KEY ("sessionId", "id"),
    CONSTRAINT "SessionSearch_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Finds every document holding the words (prefixes included) when they are rare enough to gather all matches.
CREATE INDEX "SessionSearch_terms_idx" ON "SessionSearch" USING GIN ("terms");

-- Full-text search over session titles, messages and plans (SQLite FTS5, contentless: it stores no text).
-- A document's rowid is searchKey * 2^24 + its number within the session, so a match names its session
-- without a lookup, and a session's documents are one rowid range.
ALTER TABLE "Session" ADD COLUMN "searchKey" INTEGER;
ALTER TABLE "Session" ADD COLUMN "searchDocs" INTEGER NOT NULL DEFAULT 0;
UPDATE "Session" SET "searchKey" = rowid;
CREATE UNIQUE INDEX "Session_searchKey_key" ON "Session"("searchKey");

CREATE VIRTUAL TABLE "SessionSearch" USING fts5("body", content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');

INSERT INTO "SessionSearch" (rowid, "body")
SELECT s."searchKey" * 16777216 + d."n", d."body"
FROM (
  SELECT "sessionId", "body", row_number() OVER (PARTITION BY "sessionId" ORDER BY "ord") - 1 AS "n"
  FROM (
    SELECT "id" AS "sessionId", "title" AS "body", -1 AS "ord" FROM "Session"
    UNION ALL
    SELECT "sessionId", json_extract("payload", '$.text'), "seq" FROM "SessionEvent"
    WHERE "type" IN ('message.user', 'message.assistant') AND trim(coalesce(json_extract("payload", '$.text'), '')) <> ''
    UNION ALL
    SELECT p."sessionId", v."content", 1000000000 + v."version" FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId"
  )
) d
JOIN "Session" s ON s."id" = d."sessionId";

UPDATE "Session" SET "searchDocs" = 1
  + (SELECT count(*) FROM "SessionEvent" e WHERE e."sessionId" = "Session"."id" AND e."type" IN ('message.user', 'message.assistant') AND trim(coalesce(json_extract(e."payload", '$.text'), '')) <> '')
  + (SELECT count(*) FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId" WHERE p."sessionId" = "Session"."id");

-- List filters by mode, newest first.
CREATE INDEX "Session_permissionMode_lastActivityAt_idx" ON "Session"("permissionMode", "lastActivityAt");

-- Issue 41: a team has person approval unless an owner turned it off explicitly. The column defaults to on, and
-- teams made before are set back to on (a missing field then meant off, for anyone who could start a session, and
-- the two cannot be told apart): an owner turns it off again, now signed in the audit log.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "leadSessionId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "personApproval" BOOLEAN NOT NULL DEFAULT true
);
INSERT INTO "new_Team" ("createdAt", "id", "leadSessionId", "name", "personApproval") SELECT "createdAt", "id", "leadSessionId", "name", true FROM "Team";
DROP TABLE "Team";
ALTER TABLE "new_Team" RENAME TO "Team";
CREATE UNIQUE INDEX "Team_leadSessionId_key" ON "Team"("leadSessionId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

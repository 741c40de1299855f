-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "leadSessionId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "personApproval" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_Team" ("createdAt", "id", "leadSessionId", "name") SELECT "createdAt", "id", "leadSessionId", "name" FROM "Team";
DROP TABLE "Team";
ALTER TABLE "new_Team" RENAME TO "Team";
CREATE UNIQUE INDEX "Team_leadSessionId_key" ON "Team"("leadSessionId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateTable
CREATE TABLE "WorkspaceTrust" (
    "workspace" TEXT NOT NULL PRIMARY KEY,
    "hash" TEXT NOT NULL,
    "trustedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "trustedBy" TEXT NOT NULL DEFAULT 'person'
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PermissionGrant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "sessionId" TEXT,
    "workspace" TEXT,
    "permission" TEXT NOT NULL,
    "pattern" TEXT NOT NULL,
    "action" TEXT NOT NULL DEFAULT 'allow',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "exact" BOOLEAN NOT NULL DEFAULT false,
    "actor" TEXT NOT NULL DEFAULT 'agent',
    CONSTRAINT "PermissionGrant_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_PermissionGrant" ("action", "createdAt", "exact", "id", "pattern", "permission", "scope", "sessionId", "workspace") SELECT "action", "createdAt", "exact", "id", "pattern", "permission", "scope", "sessionId", "workspace" FROM "PermissionGrant";
DROP TABLE "PermissionGrant";
ALTER TABLE "new_PermissionGrant" RENAME TO "PermissionGrant";
CREATE INDEX "PermissionGrant_sessionId_idx" ON "PermissionGrant"("sessionId");
CREATE INDEX "PermissionGrant_workspace_idx" ON "PermissionGrant"("workspace");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Issue 27: review policies per workspace root or workspace, and the approvals a pending plan review has.
-- CreateTable
CREATE TABLE "ReviewPolicy" (
    "path" TEXT NOT NULL PRIMARY KEY,
    "approvals" INTEGER NOT NULL DEFAULT 1,
    "allowSelfApproval" BOOLEAN NOT NULL DEFAULT true,
    "paths" TEXT NOT NULL DEFAULT '[]',
    "teams" TEXT NOT NULL DEFAULT '{}',
    "owners" TEXT,
    "ownersHash" TEXT,
    "updatedAt" DATETIME NOT NULL,
    "updatedBy" TEXT
);

-- CreateTable
CREATE TABLE "ReviewApproval" (
    "reviewId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "credential" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dismissedAt" DATETIME,

    PRIMARY KEY ("reviewId", "userId"),
    CONSTRAINT "ReviewApproval_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);


-- AlterTable
ALTER TABLE "PlanVersion" ADD COLUMN "baselineTree" TEXT;

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "planVersion" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "report" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Verification_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Verification_sessionId_createdAt_idx" ON "Verification"("sessionId", "createdAt");

-- CreateIndex
CREATE INDEX "Verification_planId_planVersion_idx" ON "Verification"("planId", "planVersion");


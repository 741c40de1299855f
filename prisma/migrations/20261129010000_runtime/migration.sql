-- DropIndex
DROP INDEX "Session_parentId_idx";

-- AlterTable
ALTER TABLE "Session" ADD COLUMN "parentCallId" TEXT;

-- CreateIndex
CREATE INDEX "Session_parentId_parentCallId_idx" ON "Session"("parentId", "parentCallId");

-- CreateIndex
CREATE INDEX "Review_sessionId_toolCallId_idx" ON "Review"("sessionId", "toolCallId");

-- CreateIndex
CREATE INDEX "PermissionRequest_sessionId_toolCallId_idx" ON "PermissionRequest"("sessionId", "toolCallId");


-- Issue 28: comment threads (replies, resolved by a person) and suggestion blocks on plan comments.
-- AlterTable
ALTER TABLE "PlanComment" ADD COLUMN "parentId" TEXT;
ALTER TABLE "PlanComment" ADD COLUMN "resolvedAt" DATETIME;
ALTER TABLE "PlanComment" ADD COLUMN "resolvedBy" TEXT;
ALTER TABLE "PlanComment" ADD COLUMN "suggestion" TEXT;

-- Issue 28: comment threads (replies, resolved by a person) and suggestion blocks on plan comments.
-- AlterTable
ALTER TABLE "PlanComment" ADD COLUMN     "parentId" TEXT,
ADD COLUMN     "resolvedAt" TIMESTAMP(3),
ADD COLUMN     "resolvedBy" TEXT,
ADD COLUMN     "suggestion" TEXT;

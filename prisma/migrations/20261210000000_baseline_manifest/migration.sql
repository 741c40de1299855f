-- Issue 28: a workspace without git gets a manifest of its files at approval, which verification diffs against.
-- AlterTable
ALTER TABLE "PlanVersion" ADD COLUMN "baselineManifest" TEXT;

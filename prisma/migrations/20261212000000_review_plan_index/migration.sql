-- Issue 43: the approval and verification find a version's approving review by (planId, planVersion); without an index
-- each lookup scanned every review ever made, so an approval grew slower with the history.
-- CreateIndex
CREATE INDEX "Review_planId_planVersion_idx" ON "Review"("planId", "planVersion");

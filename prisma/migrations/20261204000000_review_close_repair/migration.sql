-- Data only (issue 25): reviews that closed without their plan rows (answered in the agent's own terminal, or
-- superseded by a newer plan version) left the version and the plan "submitted", shown as awaiting review.
-- Every close now writes the review, its version and the plan together; this brings older rows in line.

-- A version still "submitted" (or answered elsewhere without a verdict) takes its closed review's verdict.
UPDATE "PlanVersion"
SET ("status", "decision", "feedback", "decidedBy", "decidedAt") = (
    SELECT r."status", r."decision", r."feedback", r."decidedBy", r."decidedAt"
    FROM "Review" r
    WHERE r."planId" = "PlanVersion"."planId" AND r."planVersion" = "PlanVersion"."version" AND r."status" <> 'pending'
    ORDER BY r."createdAt" DESC, r."id" DESC
    LIMIT 1
)
WHERE "status" IN ('submitted', 'answered_elsewhere')
  AND "decision" IS NULL
  AND EXISTS (
    SELECT 1 FROM "Review" r
    WHERE r."planId" = "PlanVersion"."planId" AND r."planVersion" = "PlanVersion"."version" AND r."status" <> 'pending'
  );

-- A plan still "submitted" whose current version is no longer takes that version's status.
UPDATE "Plan"
SET "status" = (
    SELECT v."status" FROM "PlanVersion" v WHERE v."planId" = "Plan"."id" AND v."version" = "Plan"."currentVersion"
)
WHERE "status" = 'submitted'
  AND EXISTS (
    SELECT 1 FROM "PlanVersion" v
    WHERE v."planId" = "Plan"."id" AND v."version" = "Plan"."currentVersion" AND v."status" <> 'submitted'
  );

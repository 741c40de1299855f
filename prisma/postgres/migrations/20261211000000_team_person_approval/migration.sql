-- Issue 41: a team has person approval unless an owner turned it off explicitly. The column defaults to on, and
-- teams made before are set back to on (a missing field then meant off, for anyone who could start a session, and
-- the two cannot be told apart): an owner turns it off again, now signed in the audit log.
-- AlterTable
ALTER TABLE "Team" ALTER COLUMN "personApproval" SET DEFAULT true;
UPDATE "Team" SET "personApproval" = true;

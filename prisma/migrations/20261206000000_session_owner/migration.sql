-- Issue 26: who started a session, and the agent token an outside agent's session is bound to.
-- AlterTable
ALTER TABLE "Session" ADD COLUMN "agentTokenId" TEXT;
ALTER TABLE "Session" ADD COLUMN "startedBy" TEXT;

-- The session page shows a session's latest permission decisions: read newest first from an index, so a long
-- session's page costs the same as a short one's.
CREATE INDEX "PermissionRequest_sessionId_createdAt_idx" ON "PermissionRequest"("sessionId", "createdAt");

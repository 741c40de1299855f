-- Issue 46: notices owed to people (email, Slack), each person's choices, Slack links, seen signed requests, and the
-- review policy's notify settings.
-- CreateTable
CREATE TABLE "Notice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "key" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "userId" TEXT,
    "channel" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "address" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "claim" TEXT,
    "leaseUntil" DATETIME,
    "error" TEXT,
    "ref" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "Notice_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NotifyPreference" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "email" BOOLEAN NOT NULL DEFAULT true,
    "slack" BOOLEAN NOT NULL DEFAULT true,
    "events" TEXT NOT NULL DEFAULT '["waiting","reminder","decided","verification"]',
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "NotifyPreference_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SlackLink" (
    "slackUser" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT,
    "codeHash" TEXT,
    "codeExpiresAt" DATETIME,
    "linkedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SlackLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SeenRequest" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL
);

-- AlterTable
ALTER TABLE "ReviewPolicy" ADD COLUMN "notify" TEXT NOT NULL DEFAULT '{}';

-- CreateIndex
CREATE UNIQUE INDEX "Notice_key_key" ON "Notice"("key");

-- CreateIndex
CREATE INDEX "Notice_itemId_idx" ON "Notice"("itemId");

-- CreateIndex
CREATE INDEX "Notice_status_nextAttemptAt_idx" ON "Notice"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Notice_userId_id_idx" ON "Notice"("userId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "SlackLink_codeHash_key" ON "SlackLink"("codeHash");

-- CreateIndex
CREATE INDEX "SlackLink_userId_idx" ON "SlackLink"("userId");

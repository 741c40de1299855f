-- Issue 46: notices owed to people (email, Slack), each person's choices, Slack links, seen signed requests, and the
-- review policy's notify settings.
-- AlterTable
ALTER TABLE "ReviewPolicy" ADD COLUMN     "notify" TEXT NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "Notice" (
    "id" TEXT NOT NULL,
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
    "nextAttemptAt" TIMESTAMP(3),
    "claim" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "error" TEXT,
    "ref" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Notice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotifyPreference" (
    "userId" TEXT NOT NULL,
    "email" BOOLEAN NOT NULL DEFAULT true,
    "slack" BOOLEAN NOT NULL DEFAULT true,
    "events" TEXT NOT NULL DEFAULT '["waiting","reminder","decided","verification"]',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NotifyPreference_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "SlackLink" (
    "slackUser" TEXT NOT NULL,
    "userId" TEXT,
    "codeHash" TEXT,
    "codeExpiresAt" TIMESTAMP(3),
    "linkedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SlackLink_pkey" PRIMARY KEY ("slackUser")
);

-- CreateTable
CREATE TABLE "SeenRequest" (
    "key" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SeenRequest_pkey" PRIMARY KEY ("key")
);

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

-- AddForeignKey
ALTER TABLE "Notice" ADD CONSTRAINT "Notice_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotifyPreference" ADD CONSTRAINT "NotifyPreference_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SlackLink" ADD CONSTRAINT "SlackLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;


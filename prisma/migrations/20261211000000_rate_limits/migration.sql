-- Issue 41: attempts counted per key (sign-in per email and per address, one-time links, token creation,
-- better-auth's own routes), in the database so every instance shares them.
-- CreateTable
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL,
    "windowEnd" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "RateLimit_windowEnd_idx" ON "RateLimit"("windowEnd");

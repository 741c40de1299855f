-- Issue 27: review policies per workspace root or workspace, and the approvals a pending plan review has.
-- CreateTable
CREATE TABLE "ReviewPolicy" (
    "path" TEXT NOT NULL,
    "approvals" INTEGER NOT NULL DEFAULT 1,
    "allowSelfApproval" BOOLEAN NOT NULL DEFAULT true,
    "paths" TEXT NOT NULL DEFAULT '[]',
    "teams" TEXT NOT NULL DEFAULT '{}',
    "owners" TEXT,
    "ownersHash" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,

    CONSTRAINT "ReviewPolicy_pkey" PRIMARY KEY ("path")
);

-- CreateTable
CREATE TABLE "ReviewApproval" (
    "reviewId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "credential" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dismissedAt" TIMESTAMP(3),

    CONSTRAINT "ReviewApproval_pkey" PRIMARY KEY ("reviewId","userId")
);

-- AddForeignKey
ALTER TABLE "ReviewApproval" ADD CONSTRAINT "ReviewApproval_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review"("id") ON DELETE CASCADE ON UPDATE CASCADE;

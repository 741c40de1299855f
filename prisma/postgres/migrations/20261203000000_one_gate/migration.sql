-- AlterTable
ALTER TABLE "PermissionGrant" ADD COLUMN     "actor" TEXT NOT NULL DEFAULT 'agent';

-- CreateTable
CREATE TABLE "WorkspaceTrust" (
    "workspace" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "trustedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "trustedBy" TEXT NOT NULL DEFAULT 'person',

    CONSTRAINT "WorkspaceTrust_pkey" PRIMARY KEY ("workspace")
);

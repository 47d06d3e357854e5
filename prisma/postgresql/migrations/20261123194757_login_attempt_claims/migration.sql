-- Throttle counts are short-lived: they start over in the new shape rather than being converted.
DELETE FROM "LoginThrottle";

-- AlterTable
ALTER TABLE "LoginThrottle" DROP COLUMN "failures",
DROP COLUMN "firstFailAt",
DROP COLUMN "lastFailAt",
ADD COLUMN     "attempts" INTEGER NOT NULL,
ADD COLUMN     "lastAttemptAt" BIGINT NOT NULL,
ADD COLUMN     "windowStart" BIGINT NOT NULL;

-- CreateIndex
CREATE INDEX "LoginThrottle_windowStart_idx" ON "LoginThrottle"("windowStart");

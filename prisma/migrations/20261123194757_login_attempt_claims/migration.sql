-- Throttle counts are short-lived: they start over in the new shape rather than being converted.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_LoginThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "attempts" INTEGER NOT NULL,
    "windowStart" BIGINT NOT NULL,
    "lastAttemptAt" BIGINT NOT NULL
);
DROP TABLE "LoginThrottle";
ALTER TABLE "new_LoginThrottle" RENAME TO "LoginThrottle";
CREATE INDEX "LoginThrottle_windowStart_idx" ON "LoginThrottle"("windowStart");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

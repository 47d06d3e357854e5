-- CreateTable
CREATE TABLE "RateLimitWindow" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "windowStart" BIGINT NOT NULL,
    "count" INTEGER NOT NULL
);

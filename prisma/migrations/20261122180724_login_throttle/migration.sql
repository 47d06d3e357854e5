-- CreateTable
CREATE TABLE "LoginThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL,
    "firstFailAt" DATETIME NOT NULL,
    "lastFailAt" DATETIME NOT NULL
);

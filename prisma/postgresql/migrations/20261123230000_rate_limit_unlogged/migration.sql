-- A request's count against its token's rate limit needs no crash safety: a crash of the database
-- at worst restarts the minute's counts. UNLOGGED spares each count its write-ahead-log flush at
-- commit, which was most of an API request's time on PostgreSQL under concurrency. Prisma's schema
-- has no word for it, so the schema diff neither sees nor undoes it. (Replicas do not carry an
-- unlogged table: after a fail-over the counts start again from zero.)
ALTER TABLE "RateLimitWindow" SET UNLOGGED;

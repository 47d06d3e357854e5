-- Hand-written, SQLite only: the catalogue's figures (GET /stats, the dashboard) kept as counts, so
-- a call reads a few hundred rows instead of counting every plant. On 100,000 plants each call
-- counted them all three times (the total, the tags, the days), and SQLite runs one process's reads
-- one after another, so eight callers at once waited for each other's counts. The triggers keep the
-- counts in the statement, so in the transaction, of every change to "Plant", whichever code path
-- makes it (the API, a batch, the pages, the operator commands). PostgreSQL counts in parallel and
-- keeps no such table: a shared counter row would make concurrent creates wait for each other.
-- A count that reaches zero is removed, so the tables hold only days and tags that have plants.
-- The index on "createdAt", which only the per-day count read, goes: one B-tree fewer to write with
-- every plant.
CREATE TABLE "PlantDayCount" ("day" TEXT NOT NULL PRIMARY KEY, "count" INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE "PlantTagCount" ("tag" TEXT NOT NULL PRIMARY KEY, "count" INTEGER NOT NULL) WITHOUT ROWID;
-- The tags by size, for the largest ones.
CREATE INDEX "PlantTagCount_count_idx" ON "PlantTagCount" ("count" DESC, "tag");

-- "createdAt" is ISO text (or a column default's 'YYYY-MM-DD HH:MM:SS'), UTC: both start with the day.
INSERT INTO "PlantDayCount" ("day", "count") SELECT substr("createdAt", 1, 10), count(*) FROM "Plant" GROUP BY 1;
INSERT INTO "PlantTagCount" ("tag", "count") SELECT "tag", count(*) FROM "Plant" WHERE "tag" IS NOT NULL GROUP BY 1;

CREATE TRIGGER "Plant_counts_insert" AFTER INSERT ON "Plant" BEGIN
  INSERT INTO "PlantDayCount" ("day", "count") VALUES (substr(NEW."createdAt", 1, 10), 1)
    ON CONFLICT ("day") DO UPDATE SET "count" = "count" + 1;
  INSERT INTO "PlantTagCount" ("tag", "count") SELECT NEW."tag", 1 WHERE NEW."tag" IS NOT NULL
    ON CONFLICT ("tag") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "Plant_counts_delete" AFTER DELETE ON "Plant" BEGIN
  UPDATE "PlantDayCount" SET "count" = "count" - 1 WHERE "day" = substr(OLD."createdAt", 1, 10);
  DELETE FROM "PlantDayCount" WHERE "day" = substr(OLD."createdAt", 1, 10) AND "count" <= 0;
  UPDATE "PlantTagCount" SET "count" = "count" - 1 WHERE "tag" = OLD."tag";
  DELETE FROM "PlantTagCount" WHERE "tag" = OLD."tag" AND "count" <= 0;
END;

-- Only a change of tag or of creation time moves a count ("IS NOT" also compares NULLs).
CREATE TRIGGER "Plant_counts_update" AFTER UPDATE OF "tag", "createdAt" ON "Plant"
  WHEN OLD."tag" IS NOT NEW."tag" OR OLD."createdAt" IS NOT NEW."createdAt" BEGIN
  UPDATE "PlantDayCount" SET "count" = "count" - 1 WHERE "day" = substr(OLD."createdAt", 1, 10);
  DELETE FROM "PlantDayCount" WHERE "day" = substr(OLD."createdAt", 1, 10) AND "count" <= 0;
  INSERT INTO "PlantDayCount" ("day", "count") VALUES (substr(NEW."createdAt", 1, 10), 1)
    ON CONFLICT ("day") DO UPDATE SET "count" = "count" + 1;
  UPDATE "PlantTagCount" SET "count" = "count" - 1 WHERE "tag" = OLD."tag";
  DELETE FROM "PlantTagCount" WHERE "tag" = OLD."tag" AND "count" <= 0;
  INSERT INTO "PlantTagCount" ("tag", "count") SELECT NEW."tag", 1 WHERE NEW."tag" IS NOT NULL
    ON CONFLICT ("tag") DO UPDATE SET "count" = "count" + 1;
END;

DROP INDEX "Plant_createdAt_idx";

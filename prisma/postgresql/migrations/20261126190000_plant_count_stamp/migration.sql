-- Hand-written, PostgreSQL only: a stamp of the plants as they stand, by which each instance keeps
-- the counts it has made (X-Total-Count, the catalogue's "1–20 of 3,412") until the plants change.
-- Every statement that changes "Plant" appends to "PlantCountChange" (*_plant_counts); a change of
-- name now does too, with a change of 0 to its day and tag. Folding moves appended rows into the
-- counts and adds how many it moved to "changes" here, in the same statement. So in any one
-- snapshot, "changes" plus the rows still appended is how many change rows were ever committed and
-- visible: it grows with every change that becomes visible, whichever instance made it, and stays
-- put otherwise. "id" tells one database's stamps from another's.
CREATE TABLE "PlantCountStamp" ("id" TEXT NOT NULL PRIMARY KEY DEFAULT gen_random_uuid()::text, "changes" BIGINT NOT NULL);
INSERT INTO "PlantCountStamp" ("changes") VALUES (0);

CREATE OR REPLACE FUNCTION "Plant_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "PlantCountChange" ("day", "tag", "change")
    SELECT "day", "tag", sum("change") FROM (
      SELECT to_char(b."createdAt", 'YYYY-MM-DD') AS "day", b."tag", -1 AS "change"
        FROM "before" b JOIN "after" a ON a."seq" = b."seq"
        WHERE a."tag" IS DISTINCT FROM b."tag" OR a."createdAt" IS DISTINCT FROM b."createdAt"
      UNION ALL
      SELECT to_char(a."createdAt", 'YYYY-MM-DD'), a."tag", 1
        FROM "before" b JOIN "after" a ON a."seq" = b."seq"
        WHERE a."tag" IS DISTINCT FROM b."tag" OR a."createdAt" IS DISTINCT FROM b."createdAt"
      UNION ALL
      -- A change of name moves no count, but it changes what a search matches.
      SELECT to_char(a."createdAt", 'YYYY-MM-DD'), a."tag", 0
        FROM "before" b JOIN "after" a ON a."seq" = b."seq"
        WHERE a."name" IS DISTINCT FROM b."name"
    ) AS "moved"
    GROUP BY 1, 2;
  RETURN NULL;
END $$;

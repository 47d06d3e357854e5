-- Two-character searches keep their index; one-character searches leave it. plant_short_grams gave
-- each name its characters and its pairs of adjacent characters (about 57 keys for a name of 50
-- characters), and inserting those keys was about half of a plant's insert inside PostgreSQL. A
-- single character is in nearly every name (`a` in 97 of 100 plants): a page of it is filled by the
-- newest-first scan after a few rows, and it was already counted by LIKE alone over every plant
-- (14 ms on 100,000 plants, against 17 ms through the index). Only a character few names have is
-- slower without the index: at worst a read of every plant, as its count already is.
--
-- plant_name_pairs(text) is every pair of adjacent characters (code points, as substr counts them
-- in UTF-8), with repeats, which GIN drops; a name of one character has none. Its GIN index answers
-- "which names contain this two-character text" exactly: plant_name_pairs("nameFolded") @>
-- ARRAY['qx'] (lib/db/postgresql/plants.ts keeps the LIKE beside it). Without the characters,
-- batches stored 12,800–13,600 plants/s with one client where they stored 10,800–11,800
-- (docs/performance.md). Prisma's schema cannot express an index on an expression, and its diff
-- leaves one alone.
--
-- plant_short_grams itself stays: instances of the version before this one call it in their
-- searches of one or two characters while a rolling deploy replaces them, and without its index
-- they still answer right, checking it only on the names LIKE keeps. Nothing of this version calls it.
DROP INDEX "Plant_nameFolded_short_grams_idx";

CREATE FUNCTION plant_name_pairs(folded TEXT) RETURNS TEXT[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT substr(folded, i, 2) FROM generate_series(1, char_length(folded) - 1) AS i) $$;

CREATE INDEX "Plant_nameFolded_pairs_idx" ON "Plant" USING gin (plant_name_pairs("nameFolded"));

-- Searches of one or two characters. A trigram index cannot serve them (they contain no trigram),
-- so PostgreSQL read every plant for one that matches few names: about 10 ms per search on 100,000
-- plants, and the whole search mix's p99 at 8 connections followed it (144 ms for "qx").
--
-- plant_short_grams(text) is every character of the text and every pair of adjacent characters
-- (code points, as substr counts them in UTF-8), with repeats, which GIN drops. Its GIN index
-- answers "which names contain this one- or two-character text" exactly:
-- plant_short_grams("nameFolded") @> ARRAY['qx'] (lib/plants/prisma-store.ts, which keeps the LIKE
-- beside it). For a common character such as "a", the planner's statistics of the expression steer
-- it to the newest-first scan instead, which fills a page after a few rows.
--
-- The index costs each stored plant some 30 µs more (about 45 keys). Prisma's schema cannot express
-- an index on an expression, and its diff leaves one alone (test/db/schema.test.ts stays green).
CREATE FUNCTION plant_short_grams(folded TEXT) RETURNS TEXT[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT regexp_split_to_array(folded, '') || ARRAY(SELECT substr(folded, i, 2) FROM generate_series(1, char_length(folded) - 1) AS i) $$;

CREATE INDEX "Plant_nameFolded_short_grams_idx" ON "Plant" USING gin (plant_short_grams("nameFolded"));

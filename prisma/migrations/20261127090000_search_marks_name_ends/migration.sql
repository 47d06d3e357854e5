-- Hand-written, as the search table itself is (*_catalogue_search, *_search_without_column_sizes):
-- the same FTS5 trigram table, now holding each name with two U+0001 characters after it. Then every
-- character of a name starts one of its trigrams, the last two included ("b" U+0001 U+0001 for a name
-- ending in "b"), so one or two characters, which make no trigram, are found among the table's terms
-- that start with them (lib/db/sqlite/short-search.ts). No name and no search holds U+0001 (both
-- refuse control characters), so a search of three characters or more finds what it found before,
-- and the two add two trigrams to a name's 20 or so.
--
-- The table keeps "Plant" as its content, for its rowids ("seq"); its text is "nameFolded" and those
-- two characters, so it is filled here and kept by the triggers below, never by 'rebuild'.
DROP TRIGGER "Plant_search_insert";
DROP TRIGGER "Plant_search_delete";
DROP TRIGGER "Plant_search_update";
DROP TABLE "PlantSearch";

CREATE VIRTUAL TABLE "PlantSearch" USING fts5(
    "nameFolded",
    content = 'Plant',
    content_rowid = 'seq',
    tokenize = 'trigram case_sensitive 1',
    columnsize = 0
);

INSERT INTO "PlantSearch" (rowid, "nameFolded")
    SELECT "seq", "nameFolded" || char(1, 1) FROM "Plant" WHERE "nameFolded" IS NOT NULL;

CREATE TRIGGER "Plant_search_insert" AFTER INSERT ON "Plant" WHEN NEW."nameFolded" IS NOT NULL BEGIN
    INSERT INTO "PlantSearch" (rowid, "nameFolded") VALUES (NEW."seq", NEW."nameFolded" || char(1, 1));
END;

CREATE TRIGGER "Plant_search_delete" AFTER DELETE ON "Plant" WHEN OLD."nameFolded" IS NOT NULL BEGIN
    INSERT INTO "PlantSearch" ("PlantSearch", rowid, "nameFolded") VALUES ('delete', OLD."seq", OLD."nameFolded" || char(1, 1));
END;

CREATE TRIGGER "Plant_search_update" AFTER UPDATE OF "nameFolded" ON "Plant" BEGIN
    INSERT INTO "PlantSearch" ("PlantSearch", rowid, "nameFolded")
        SELECT 'delete', OLD."seq", OLD."nameFolded" || char(1, 1) WHERE OLD."nameFolded" IS NOT NULL;
    INSERT INTO "PlantSearch" (rowid, "nameFolded")
        SELECT NEW."seq", NEW."nameFolded" || char(1, 1) WHERE NEW."nameFolded" IS NOT NULL;
END;

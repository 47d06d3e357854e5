-- AlterTable
ALTER TABLE "Plant" ADD COLUMN "nameFolded" TEXT;

-- CreateIndex
CREATE INDEX "Plant_tag_seq_idx" ON "Plant"("tag", "seq");

-- Hand-written (Prisma's schema cannot express it): the substring index for search, an FTS5
-- table over "nameFolded" with the trigram tokenizer. It stores no copy of the text (its content
-- is the Plant table) and its rowid is "seq". Names are folded before they are stored
-- (lib/plants/fold.ts), so the tokenizer compares them exactly (case_sensitive 1). Triggers keep
-- it in step with every writer, the CLI and Prisma included.
CREATE VIRTUAL TABLE "PlantSearch" USING fts5(
    "nameFolded",
    content = 'Plant',
    content_rowid = 'seq',
    tokenize = 'trigram case_sensitive 1'
);

CREATE TRIGGER "Plant_search_insert" AFTER INSERT ON "Plant" WHEN NEW."nameFolded" IS NOT NULL BEGIN
    INSERT INTO "PlantSearch" (rowid, "nameFolded") VALUES (NEW."seq", NEW."nameFolded");
END;

CREATE TRIGGER "Plant_search_delete" AFTER DELETE ON "Plant" WHEN OLD."nameFolded" IS NOT NULL BEGIN
    INSERT INTO "PlantSearch" ("PlantSearch", rowid, "nameFolded") VALUES ('delete', OLD."seq", OLD."nameFolded");
END;

CREATE TRIGGER "Plant_search_update" AFTER UPDATE OF "nameFolded" ON "Plant" BEGIN
    INSERT INTO "PlantSearch" ("PlantSearch", rowid, "nameFolded")
        SELECT 'delete', OLD."seq", OLD."nameFolded" WHERE OLD."nameFolded" IS NOT NULL;
    INSERT INTO "PlantSearch" (rowid, "nameFolded")
        SELECT NEW."seq", NEW."nameFolded" WHERE NEW."nameFolded" IS NOT NULL;
END;

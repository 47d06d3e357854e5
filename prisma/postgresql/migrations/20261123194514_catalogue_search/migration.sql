-- AlterTable
ALTER TABLE "Plant" ADD COLUMN     "nameFolded" TEXT;

-- CreateIndex
CREATE INDEX "Plant_tag_seq_idx" ON "Plant"("tag", "seq");

-- The substring index for search: a trigram GIN index over "nameFolded" (declared in the schema
-- by its `// postgresql:` line). Its operator class comes from pg_trgm, which ships with
-- PostgreSQL and is a trusted extension (13+): a database owner without superuser rights may
-- create it. Prisma does not manage extensions, so that line is written by hand.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "Plant_nameFolded_trgm_idx" ON "Plant" USING gin ("nameFolded" gin_trgm_ops);

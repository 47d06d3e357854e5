-- Hand-written, as the search table itself is (see *_catalogue_search): the same FTS5 trigram
-- table, without its per-row token counts (columnsize = 0). FTS5 keeps those counts, in
-- "PlantSearch_docsize", only for ranking (bm25), and search here orders by "seq", never by rank.
-- Writing them cost every stored name one more row: about 7 µs of a create's 70 µs in SQLite
-- (16 creates a commit), 6 µs a plant in a batch. The triggers name the table, not its options, so
-- they stay; 'rebuild' indexes every stored name again from "Plant".
DROP TABLE "PlantSearch";

CREATE VIRTUAL TABLE "PlantSearch" USING fts5(
    "nameFolded",
    content = 'Plant',
    content_rowid = 'seq',
    tokenize = 'trigram case_sensitive 1',
    columnsize = 0
);

INSERT INTO "PlantSearch" ("PlantSearch") VALUES ('rebuild');

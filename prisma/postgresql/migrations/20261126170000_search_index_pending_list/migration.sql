-- The search index's pending list is kept short: 256 kB instead of PostgreSQL's 4 MB. A GIN index
-- takes new entries into a pending list first and merges them into its tree in bulk, and every
-- search through the index reads the whole list until then. After a bulk load (an import of the
-- whole catalogue) the list sat near 4 MB until autovacuum came, and search's p99 at 8 connections
-- on 100,000 plants was 120-150 ms; with 256 kB, about 43 ms, while the writes still merge in bulk
-- (batches store as many plants a second as before). Turning the list off (fastupdate = off)
-- searched as fast but cost batches about a third of their speed. Figures: docs/performance.md.
ALTER INDEX "Plant_nameFolded_trgm_idx" SET (gin_pending_list_limit = 256);

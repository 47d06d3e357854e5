// The columns of a plants CSV, free of the parser and the schemas, so a page can name them without
// loading either: the import page loads lib/csv/plants-csv.ts only once a file is chosen.
export const CSV_COLUMNS = ['id', 'name', 'tag'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

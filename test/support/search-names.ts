// The names the search tests store (in the store contract suite and over HTTP): non-ASCII letters in
// other cases, a German ß, Greek and Cyrillic, a dotted capital I, full-width letters, LIKE and FTS
// syntax as plain text, and characters outside the BMP. Stored oldest first, so lists (newest
// first) show them bottom up.
export const SEARCH_NAMES = [
  'Monstera Deliciosa',
  'Gartenstraße Farn',
  'Φίκος λυράτα',
  'МОНСТЕРА ВАРИЕГАТА',
  'İstanbul ivy',
  'Ｆｅｒｎ wide',
  'Café au lait',
  '100% "pure" fern_x \\ back',
  "Monstera 'Thai Constellation'",
  'Potted 🪴🌵 cactus',
];

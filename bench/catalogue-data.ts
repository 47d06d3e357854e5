// A store-sized catalogue for the benchmarks: deterministic plant names and tags, the way a plant
// shop's list reads (genus, species, sometimes a cultivar in quotes), with some non-ASCII names, and
// every other thousand plants numbered stock named in one repetitive pattern ("Orchid 5 plant 3"), where nearly every
// trigram of a long search is in nearly every name of that part.
const GENERA = [
  'Monstera', 'Philodendron', 'Ficus', 'Calathea', 'Alocasia', 'Anthurium', 'Pothos', 'Begonia', 'Peperomia', 'Hoya',
  'Aloe', 'Echeveria', 'Haworthia', 'Crassula', 'Sansevieria', 'Dracaena', 'Maranta', 'Pilea', 'Aglaonema', 'Syngonium',
  'Nephrolepis', 'Asplenium', 'Platycerium', 'Tillandsia', 'Opuntia', 'Mammillaria', 'Euphorbia', 'Schefflera', 'Zamioculcas', 'Spathiphyllum',
];
const SPECIES = [
  'deliciosa', 'adansonii', 'lyrata', 'elastica', 'orbifolia', 'zebrina', 'clarinervium', 'scandens', 'rex', 'obtusifolia',
  'vera', 'elegans', 'fasciata', 'ovata', 'trifasciata', 'marginata', 'leuconeura', 'peperomioides', 'commutatum', 'podophyllum',
  'exaltata', 'nidus', 'bifurcatum', 'ionantha', 'microdasys', 'elongata', 'milii', 'arboricola', 'zamiifolia', 'wallisii',
];
const CULTIVARS = ['Thai Constellation', 'Pink Princess', 'Variegata', 'Marble Queen', 'Silver Dragon', 'Lemon Lime', 'Black Gold', 'Compacta', 'Moonlight', 'Albo'];
const EXTRA = ['Φίκος λυράτα', 'Straußenfarn', 'Glücksfeder', 'Pfeilblatt Überraschung', 'Grünlilie', 'Кактус', '榕树', 'Çiçek', 'Œillet', 'Île verte'];
export const TAGS = ['aroid', 'succulent', 'fern', 'cactus', 'bromeliad', 'palm', 'orchid', 'herb', 'tree', 'trailing', 'flowering', 'foliage'];

/** The plant number `index` (0-based) of the generated catalogue. */
export function catalogueName(index: number): string {
  const genus = GENERA[index % GENERA.length];
  const species = SPECIES[Math.floor(index / GENERA.length) % SPECIES.length];
  if (index % 97 === 0) return `${EXTRA[(index / 97) % EXTRA.length]} ${index}`;
  // Every other thousand (every other batch of the benchmarks): "Orchid <k mod 1000> plant <k div
  // 1000>", k counting that part's plants, so "orchid 5 plant 3" is one plant's name and the start
  // of others' ("... plant 30", "... plant 300"), and "plant 17" starts a thousand names for each
  // plant number that starts with 17.
  if (Math.floor(index / 1000) % 2 === 1) {
    const k = Math.floor(index / 2000) * 1000 + (index % 1000);
    return `Orchid ${k % 1000} plant ${Math.floor(k / 1000)}`;
  }
  const cultivar = index % 3 === 0 ? ` '${CULTIVARS[Math.floor(index / 7) % CULTIVARS.length]}'` : '';
  return `${genus} ${species}${cultivar} #${index}`;
}

export function catalogueTag(index: number): string | undefined {
  return index % 11 === 0 ? undefined : TAGS[(index * 7) % TAGS.length];
}

/**
 * Searches as staff type them, each with how often it comes: common and rare pieces of names,
 * a word, one or two letters, a tag, a tag with a name, a cultivar, non-ASCII text in another
 * case, text no plant has, and long searches of several words whose trigrams nearly every name of
 * their part of the catalogue has.
 */
export const SEARCHES: { label: string; query: string }[] = [
  { label: 'common word (q=monstera)', query: 'q=monstera' },
  { label: 'species (q=deliciosa)', query: 'q=deliciosa' },
  { label: 'three letters (q=phi)', query: 'q=phi' },
  { label: 'rare piece (q=99999)', query: 'q=%2399999' },
  { label: 'cultivar, other case (q=PINK PRINCESS)', query: 'q=PINK%20PRINCESS' },
  { label: 'non-ASCII, other case (q=STRAUSS)', query: 'q=STRAUSS' },
  { label: 'non-ASCII (q=ΛΥΡΆΤΑ)', query: `q=${encodeURIComponent('ΛΥΡΆΤΑ')}` },
  { label: 'no match (q=zzyzx)', query: 'q=zzyzx' },
  { label: 'one letter (q=a)', query: 'q=a' },
  { label: 'two rare letters (q=qx)', query: 'q=qx' },
  { label: 'tag (tag=fern)', query: 'tag=fern' },
  { label: 'tag and name (tag=aroid&q=var)', query: 'tag=aroid&q=var' },
  { label: 'tag and rare name (tag=cactus&q=zzyzx)', query: 'tag=cactus&q=zzyzx' },
  { label: 'long, common trigrams (q=orchid 5 plant 3)', query: 'q=orchid%205%20plant%203' },
  { label: 'long, common pieces (q=monstera deliciosa #1)', query: 'q=monstera%20deliciosa%20%231' },
  { label: 'two words, common (q=plant 17)', query: 'q=plant%2017' },
  { label: 'long, no match (q=orchid 5 plant zzyzx)', query: 'q=orchid%205%20plant%20zzyzx' },
];

// Node flags npm start gives the server. V8 sizes the young generation from the machine's memory;
// on a 24 GiB machine it let the server's RSS reach 255-312 MB under load, where 8 MB semi-spaces
// held it near 200 MB at the same throughput (npm run bench; see docs/performance-log.md).
export const SERVER_SEMI_SPACE_FLAG = '--max-semi-space-size=8';

/** NODE_OPTIONS for the server: the operator's own, plus the default for what they leave unset. */
export function serverNodeOptions(nodeOptions = '') {
  const own = nodeOptions.trim();
  if (/--max-semi-space-size\b/.test(own)) return own;
  return own ? `${SERVER_SEMI_SPACE_FLAG} ${own}` : SERVER_SEMI_SPACE_FLAG;
}

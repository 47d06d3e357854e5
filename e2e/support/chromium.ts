// The browser every e2e spec uses: Debian's Chromium, never a downloaded one, in its headless
// shell (package chromium-headless-shell: the same Blink and V8 without the full browser around
// them), which took about 40 % less CPU than `chromium --headless` for the same journeys
// (docs/testing.md, Playwright). Without the background-networking flags it keeps trying to reach
// Google's services, which this network refuses. npm test checks first that it is there
// (scripts/test-prerequisites.mjs).
import { DEFAULT_CHROMIUM_PATH } from '../../scripts/test-prerequisites.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

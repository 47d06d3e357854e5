// The browser every e2e spec uses: Debian's Chromium, never a downloaded one, in its headless
// shell (package chromium-headless-shell: the same Blink and V8 without the full browser around
// them), which took about 40 % less CPU than `chromium --headless` for the same journeys
// (docs/testing.md, Playwright). Without the background-networking flags it keeps trying to reach
// Google's services, which this network refuses.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

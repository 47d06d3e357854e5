import { describe, expect, it } from 'vitest';
import { serverNodeOptions } from '../../scripts/server-node-options.mjs';

describe("npm start's Node flags for the server", () => {
  it('caps the semi-spaces when the operator sets nothing', () => {
    expect(serverNodeOptions(undefined)).toBe('--max-semi-space-size=8');
    expect(serverNodeOptions('  ')).toBe('--max-semi-space-size=8');
  });

  it("keeps the operator's own flags, and their own semi-space size wins", () => {
    expect(serverNodeOptions('--max-old-space-size=256')).toBe('--max-semi-space-size=8 --max-old-space-size=256');
    expect(serverNodeOptions('--max-semi-space-size=32 --enable-source-maps')).toBe('--max-semi-space-size=32 --enable-source-maps');
  });
});

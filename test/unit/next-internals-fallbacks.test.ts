// Each item of Next's private surface (server/next-internals.ts) has a fallback for a Next that no
// longer has it: the server still starts and serves, the API on its direct path included, and only
// what the item was for is lost (the preload, or a protocol check, where Next answers as it would
// alone).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportedFunction, preloadEntries, withoutBackgroundPreload } from '../../server/next-internals';

describe("Next's private exports", () => {
  it('are taken only when they are functions', () => {
    const parse = () => null;
    expect(exportedFunction({ parse }, 'parse')).toBe(parse);
    expect(exportedFunction({}, 'parse')).toBeNull();
    expect(exportedFunction({ parse: 'not a function' }, 'parse')).toBeNull();
  });
});

describe('the preload', () => {
  it('is skipped, and said to be, when Next has no way to it', async () => {
    expect(await preloadEntries(undefined)).toBe(false);
    expect(await preloadEntries({})).toBe(false);
    expect(await preloadEntries({ server: { getServer: async () => ({}) } })).toBe(false);
  });

  it("runs Next's own when there is one", async () => {
    const unstable_preloadEntries = vi.fn(async () => {});
    expect(await preloadEntries({ server: { getServer: async () => ({ unstable_preloadEntries }) } })).toBe(true);
    expect(unstable_preloadEntries).toHaveBeenCalledOnce();
  });

  it("turns Next's background preload off and keeps the rest of the config", () => {
    expect(withoutBackgroundPreload({ experimental: { authInterrupts: true }, output: 'standalone' })).toEqual({
      experimental: { authInterrupts: true, preloadEntriesOnStart: false },
      output: 'standalone',
    });
  });
});

describe('the protocol checks, on a Next without its parsers', () => {
  afterEach(() => {
    vi.doUnmock('../../server/next-internals');
    vi.resetModules();
  });

  it('let the request through to Next, unchecked', async () => {
    vi.resetModules();
    vi.doMock('../../server/next-internals', () => ({ parseAndValidateFlightRouterState: null, getServerActionRequestMetadata: null }));
    const { unreadableActionBody, unreadableRouterState } = await import('../../lib/http/next-protocol');
    expect(unreadableRouterState('1', '%%% not a router state')).toBeNull();
    const action = new Request('http://n/', { method: 'POST', headers: { 'next-action': 'a', 'content-type': 'text/plain;charset=UTF-8' }, body: '{' });
    expect(await unreadableActionBody(action as never)).toBeNull();
  });

  it('refuse what Next cannot read when the parsers are there', async () => {
    const { unreadableActionBody, unreadableRouterState } = await import('../../lib/http/next-protocol');
    expect(unreadableRouterState('1', '%%% not a router state')).toMatch(/could not be read/);
    const action = new Request('http://n/', { method: 'POST', headers: { 'next-action': 'a', 'content-type': 'text/plain;charset=UTF-8', 'content-length': '1' }, body: '{' });
    expect(await unreadableActionBody(action as never)).not.toBeNull();
  });
});

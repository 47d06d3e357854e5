// Each item of Next's private surface (server/next-internals.ts) has a fallback for a Next that no
// longer has it: the server still starts and serves, the API on its direct path included, and only
// what the item was for is lost (the preload, or a protocol check, where Next answers as it would
// alone).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { exportedFunction, preloadEntries, releaseLoadedChunks, withoutBackgroundPreload } from '../../server/next-internals';

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
    expect(await preloadEntries({ server: { getServer: async () => ({ unstable_preloadEntries }) } })).toEqual([]);
    expect(unstable_preloadEntries).toHaveBeenCalledOnce();
  });

  // Next's preload, as next-server.js has it: each key of the manifest its method answers.
  function nextServerWith(manifest: Record<string, string>) {
    const loaded: string[] = [];
    class NextNodeServer {
      getAppPathsManifest() {
        return manifest;
      }
      async unstable_preloadEntries() {
        loaded.push(...Object.keys(this.getAppPathsManifest()));
      }
    }
    const server = new NextNodeServer();
    return { app: { server: { getServer: async () => server } }, server, loaded };
  }
  const MANIFEST = { '/plants/route': 'app/plants/route.js', '/plants/[id]/route': 'app/plants/[id]/route.js', '/audit-events/route': 'app/audit-events/route.js', '/page': 'app/page.js' };

  it('leaves out the routes it is told to, and gives Next back its manifest after', async () => {
    const { app, server, loaded } = nextServerWith(MANIFEST);
    const method = server.getAppPathsManifest;
    expect(await preloadEntries(app, ['/plants', '/plants/[id]', '/stats'])).toEqual(['/plants', '/plants/[id]']);
    expect(loaded).toEqual(['/audit-events/route', '/page']);
    expect(server.getAppPathsManifest).toBe(method);
    expect(Object.hasOwn(server, 'getAppPathsManifest')).toBe(false);
    expect(server.getAppPathsManifest()).toBe(MANIFEST);
  });

  it('gives the manifest back when the preload fails', async () => {
    const { app, server } = nextServerWith(MANIFEST);
    const method = server.getAppPathsManifest;
    server.unstable_preloadEntries = async () => {
      throw new Error('failed');
    };
    await expect(preloadEntries(app, ['/plants'])).rejects.toThrow('failed');
    expect(server.getAppPathsManifest).toBe(method);
    // A method of the instance's own is put back as it was.
    const own = () => MANIFEST;
    Object.defineProperty(server, 'getAppPathsManifest', { value: own, writable: true, configurable: true });
    server.unstable_preloadEntries = async () => {};
    expect(await preloadEntries(app, ['/plants'])).toEqual(['/plants']);
    expect(server.getAppPathsManifest).toBe(own);
  });

  it('loads every route when this Next has no manifest method to narrow', async () => {
    const unstable_preloadEntries = vi.fn(async () => {});
    expect(await preloadEntries({ server: { getServer: async () => ({ unstable_preloadEntries }) } }, ['/plants'])).toEqual([]);
    expect(unstable_preloadEntries).toHaveBeenCalledOnce();
    const { app, loaded } = nextServerWith(MANIFEST);
    expect(await preloadEntries(app, [])).toEqual([]);
    expect(loaded).toEqual(Object.keys(MANIFEST));
  });

  it("turns Next's background preload off and keeps the rest of the config", () => {
    expect(withoutBackgroundPreload({ experimental: { authInterrupts: true }, output: 'standalone' })).toEqual({
      experimental: { authInterrupts: true, preloadEntriesOnStart: false },
      output: 'standalone',
    });
  });
});

describe("the release of Next's loaded chunk files", () => {
  const require = createRequire(import.meta.url);
  let folder = '';
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function files() {
    folder = mkdtempSync(path.join(os.tmpdir(), 'chunks-'));
    const chunks = path.join(folder, 'server', 'chunks');
    mkdirSync(path.join(chunks, 'ssr'), { recursive: true });
    const write = (file: string, source: string) => (writeFileSync(file, source), file);
    return {
      chunks,
      // As Turbopack writes them: module ids, each group followed by its factory.
      chunk: write(path.join(chunks, 'a.js'), 'module.exports=[1,2,(m)=>{m.exports="one"},3,(m)=>{m.exports="three"}];'),
      ssrChunk: write(path.join(chunks, 'ssr', 'b.js'), 'module.exports=[4,(m)=>{}];'),
      runtime: write(path.join(chunks, 'runtime.js'), 'module.exports=function runtime(){};'),
      outside: write(path.join(folder, 'outside.js'), 'module.exports=[5,(m)=>{}];'),
    };
  }

  it("takes the chunks out of Node's module cache, and a chunk asked for again is read again", () => {
    const { chunks, chunk, ssrChunk, runtime, outside } = files();
    const first = require(chunk);
    require(ssrChunk);
    require(runtime);
    require(outside);
    expect(releaseLoadedChunks(chunks)).toBe(2);
    expect([chunk, ssrChunk].map((file) => file in require.cache)).toEqual([false, false]);
    // What is not a chunk, or not under the folder, stays.
    expect([runtime, outside].map((file) => file in require.cache)).toEqual([true, true]);
    const again = require(chunk);
    expect(again).not.toBe(first);
    expect(again).toEqual([1, 2, expect.any(Function), 3, expect.any(Function)]);
    expect(releaseLoadedChunks(chunks)).toBe(1);
  });

  it('lets go of nothing when no chunk of that shape was loaded', () => {
    const { chunks, runtime } = files();
    require(runtime);
    expect(releaseLoadedChunks(chunks)).toBe(0);
    expect(runtime in require.cache).toBe(true);
  });
});

describe('the protocol checks, on a Next without its parsers', () => {
  afterEach(() => {
    vi.doUnmock('../../server/next-internals');
    vi.resetModules();
  });

  it('let the request through to Next, unchecked', async () => {
    vi.resetModules();
    vi.doMock('../../server/next-internals', () => ({ parseAndValidateFlightRouterState: null, getServerActionRequestMetadata: null, mightBeServerReferenceId: null }));
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

  it("refuse a form that names no action, or one in a shape Next's ids do not have, and let one that names an action through", async () => {
    const { unreadableActionBody } = await import('../../lib/http/next-protocol');
    const id = 'a'.repeat(42);
    const verdicts = await Promise.all(
      ([{ a: '1' }, { [`$ACTION_ID_${id.slice(1)}`]: '' }, { $ACTION_REF_1: '' }, { $ACTION_REF_1: '', '$ACTION_1:0': '{"id":"short"}' }, { [`$ACTION_ID_${id}`]: '', a: '1' }, { $ACTION_REF_1: '', '$ACTION_1:0': `{"id":"${id}","bound":null}` }] as Record<string, string>[]).map(
        async (fields) => (await unreadableActionBody(multipartForm(fields) as never))?.message ?? null,
      ),
    );
    expect(verdicts).toEqual([...Array(4).fill(expect.stringMatching(/names no Server Action/)), null, null]);
  });

  it('refuse a form that names no action on a Next without its id test, and take any id', async () => {
    vi.resetModules();
    vi.doMock('../../server/next-internals', async (original) => ({ ...(await original<object>()), mightBeServerReferenceId: null }));
    const { unreadableActionBody } = await import('../../lib/http/next-protocol');
    expect((await unreadableActionBody(multipartForm({ a: '1' }) as never))?.code).toBe(40006);
    expect(await unreadableActionBody(multipartForm({ $ACTION_ID_short: '' }) as never)).toBeNull();
  });
});

/** A multipart POST to a page without Next-Action, as a browser sends a form with no JavaScript. */
function multipartForm(fields: Record<string, string>): Request {
  const body = Object.entries(fields)
    .map(([name, value]) => `--xyz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('') + '--xyz--\r\n';
  return new Request('http://n/login', {
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=xyz', 'content-length': String(Buffer.byteLength(body)) },
    body,
  });
}

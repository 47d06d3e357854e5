// The server's one collection before it listens (server/collect-garbage.ts).
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../server/collect-garbage';

describe('the collection before listening', () => {
  it('frees what nothing holds, and leaves no global gc behind', async () => {
    let resolveFreed: (held: string) => void = () => {};
    const freed = new Promise<string>((resolve) => (resolveFreed = resolve));
    const registry = new FinalizationRegistry<string>((held) => resolveFreed(held));
    registry.register({ big: new Array(1000).fill('x') }, 'freed');
    expect(collectGarbage()).toBe(true);
    expect(await freed).toBe('freed');
    expect('gc' in globalThis).toBe(false);
    expect(collectGarbage()).toBe(true);
  });
});

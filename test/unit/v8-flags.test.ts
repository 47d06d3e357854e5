// The flags the server sets on itself (server/v8-flags.ts), in a process of their own: the young
// generation keeps its size while starting and grows under load once youngGenerationMayGrow is called.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Allocates as a start or a load does: much of it survives a scavenge or two.
const SCRIPT = `
import v8 from 'node:v8';
import { youngGenerationMayGrow } from ${JSON.stringify(path.resolve('server/v8-flags.ts'))};
const newSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
const churn = () => { let kept = []; for (let i = 0; i < 2e6; i++) { const o = { i, s: 'x' + i }; if (i % 10 === 0) kept.push(o); if (kept.length > 5e4) kept = []; } };
const first = newSpace();
churn();
const starting = newSpace();
youngGenerationMayGrow();
churn();
console.log(JSON.stringify({ first, starting, serving: newSpace() }));
`;

describe('the V8 flags the server sets on itself', () => {
  it('keep the young generation at its first size while starting, and let it grow once serving', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(result.status, result.stderr).toBe(0);
    const { first, starting, serving } = JSON.parse(result.stdout) as Record<string, number>;
    expect(starting).toBe(first);
    expect(serving).toBeGreaterThan(2 * starting);
  }, 30_000);
});

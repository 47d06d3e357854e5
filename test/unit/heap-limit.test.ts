// The heap cap (server/heap-limit.ts) must be on every command that starts the server in
// production: npm start's and the Docker image's. They carry it as a literal; this keeps them equal.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEAP_LIMIT_FLAG, heapLimitSet } from '../../server/heap-limit';

describe('the heap cap', () => {
  it("is on npm start's command", () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start.split(' ')).toEqual(['node', HEAP_LIMIT_FLAG, 'scripts/start.mjs']);
  });

  it("is on the Docker image's CMD", () => {
    const cmd = readFileSync('Dockerfile', 'utf8').split('\n').find((line) => line.startsWith('CMD '));
    expect(JSON.parse(cmd!.slice(4))).toEqual(['node', HEAP_LIMIT_FLAG, 'start.mjs']);
  });

  it.each([
    [[HEAP_LIMIT_FLAG], undefined, true],
    [['--max_old_space_size=512'], undefined, true],
    [[], `--enable-source-maps ${HEAP_LIMIT_FLAG}`, true],
    [['--max-semi-space-size=8'], '--max-old-space-size-x', false],
    [[], undefined, false],
  ])('is seen set with execArgv %j and NODE_OPTIONS %j: %s', (execArgv, nodeOptions, expected) => {
    expect(heapLimitSet(execArgv, nodeOptions)).toBe(expected);
  });
});

// Redocly CLI lints the document the server publishes with its `recommended` ruleset
// (redocly.yaml): no error and no warning. Run offline: telemetry and the update check are off.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { request, sharedServer } from '../support/api';
import { test } from '../support/fixtures';

type Problem = { ruleId: string; severity: string; message: string; location: { pointer: string }[] };

/** Redocly's findings for a document (written into `folder`), as `rule (severity) at pointer: message`. */
async function lint(document: unknown, folder: string): Promise<string[]> {
  const file = path.join(folder, `openapi-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.resolve('node_modules/@redocly/cli/bin/cli.js'), 'lint', '--config', path.resolve('redocly.yaml'), '--format=json', file],
    { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' })); // exits 1 on errors; the report is on stdout all the same
  const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Problem[] };
  return report.problems.map(({ ruleId, severity, message, location }) => `${ruleId} (${severity}) at ${location.map((at) => at.pointer).join(', ')}: ${message}`);
}

async function publishedDocument(): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const response = await request(sharedServer(), '/openapi.json');
  expect(response.status).toBe(200);
  return response.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('Redocly lint of /openapi.json', () => {
  test('finds no error and no warning with the recommended ruleset', async ({ makeTempDir }) => {
    expect(await lint(await publishedDocument(), makeTempDir())).toEqual([]);
  });

  test('does report what the ruleset flags (a document without a license)', async ({ makeTempDir }) => {
    const document = await publishedDocument();
    delete document.info.license;
    expect(await lint(document, makeTempDir())).toEqual([expect.stringMatching(/^info-license \(warn\) at #\/info: /)]);
  });
});

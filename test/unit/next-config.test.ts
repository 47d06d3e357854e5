// The direct path answers as Next's router would only while next.config.js has nothing that would
// make Next answer a direct path otherwise: no rewrite, redirect, basePath, i18n or trailing-slash
// rule, and headers only as server/response-headers.mjs gives them to both. These are the
// project's own source, so they are checked here, once, rather than in Next's build output at
// every start.
import { describe, expect, it } from 'vitest';
import nextConfig from '../../next.config.js';
import { DIRECT_PATH_SAMPLES } from '../../server/direct-paths.mjs';
import { configuredHeadersFor, HEADER_RULES } from '../../server/response-headers.mjs';

describe('next.config.js', () => {
  it('has no rule that would change how Next answers a direct path', () => {
    for (const key of ['rewrites', 'redirects', 'basePath', 'i18n', 'trailingSlash', 'skipTrailingSlashRedirect', 'assetPrefix']) {
      expect(nextConfig, key).not.toHaveProperty(key);
    }
    // Next would add X-Powered-By, and compress a second time what the server compresses.
    expect(nextConfig.poweredByHeader).toBe(false);
    expect(nextConfig.compress).toBe(false);
  });

  it("sets the shared module's headers, unconditionally", async () => {
    const rules = await nextConfig.headers!();
    expect(rules).toBe(HEADER_RULES);
    for (const rule of rules) expect(rule).not.toHaveProperty('has');
    for (const rule of rules) expect(rule).not.toHaveProperty('missing');
  });

  it('gives every direct path the security headers and the static policy', () => {
    for (const sample of DIRECT_PATH_SAMPLES) {
      const names = configuredHeadersFor(sample).map(({ key }) => key);
      expect(names, sample).toEqual(['X-Content-Type-Options', 'Referrer-Policy', 'X-Frame-Options', 'Permissions-Policy', 'Content-Security-Policy']);
    }
    expect(configuredHeadersFor('/catalogue').map(({ key }) => key)).not.toContain('Content-Security-Policy');
  });
});

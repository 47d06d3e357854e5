// What the direct path relies on in Next's build output, checked when the server starts. The direct
// path answers as Next would only while the build is the kind it was written against: Next 16.4.6's
// manifests and route modules, and no rule of the app's (proxy, rewrite, redirect, basePath, i18n,
// conditional header) that would make Next answer a direct path otherwise. Any mismatch is a
// reason; the server then sends every request through Next (main.mjs). Plain JavaScript, like the
// rest of server/.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DIRECT_PATH_SAMPLES, DIRECT_ROUTES, NEXT_ONLY_UNDER_PLANTS } from './direct-paths.mjs';

export const NEXT_VERSION = '16.4.6';
// The manifest versions Next 16.4.6 writes, and direct-routes.mjs reads.
const MANIFEST_VERSIONS = { 'routes-manifest.json': 3, 'server/middleware-manifest.json': 3, 'server/functions-config-manifest.json': 1, 'prerender-manifest.json': 4 };
// Next answers these itself, from any handler's others; the direct path leaves them to Next.

function readJson(distDir, file) {
  return JSON.parse(readFileSync(path.join(distDir, file), 'utf8'));
}

/** The direct paths a rule's regex matches (a regex that does not compile matches everything). */
function touched(regexSource) {
  let regex;
  try {
    regex = new RegExp(regexSource);
  } catch {
    return DIRECT_PATH_SAMPLES;
  }
  return DIRECT_PATH_SAMPLES.filter((sample) => regex.test(sample));
}

function checkRules(kind, rules, reasons, { conditionsOnly = false } = {}) {
  if (!Array.isArray(rules)) return void reasons.push(`routes-manifest.json: ${kind} is not a list`);
  for (const rule of rules) {
    if (conditionsOnly && !rule.has && !rule.missing) continue;
    const hits = touched(rule.regex);
    if (hits.length) reasons.push(`routes-manifest.json: a ${kind} rule (${rule.source}) touches ${hits[0]}`);
  }
}

function checkRoutesManifest(distDir, reasons) {
  const manifest = readJson(distDir, 'routes-manifest.json');
  if (manifest.basePath) reasons.push(`routes-manifest.json: basePath is "${manifest.basePath}"`);
  if (manifest.i18n) reasons.push('routes-manifest.json: i18n is configured');
  if (manifest.caseSensitive !== false) reasons.push('routes-manifest.json: routes are case-sensitive');
  const { rewrites } = manifest;
  const rewriteRules = Array.isArray(rewrites) ? rewrites : [...(rewrites?.beforeFiles ?? []), ...(rewrites?.afterFiles ?? []), ...(rewrites?.fallback ?? [])];
  checkRules('rewrite', rewriteRules, reasons);
  checkRules('redirect', manifest.redirects, reasons);
  // Unconditional headers are applied by the direct path itself, as Next applies them.
  checkRules('header', manifest.headers, reasons, { conditionsOnly: true });
  for (const rule of manifest.headers ?? []) {
    try {
      new RegExp(rule.regex);
    } catch {
      reasons.push(`routes-manifest.json: a header rule's regex (${rule.source}) does not compile`);
    }
  }
  checkRules('onMatchHeaders', manifest.onMatchHeaders ?? [], reasons);
}

function checkProxy(distDir, reasons) {
  const middleware = readJson(distDir, 'server/middleware-manifest.json');
  for (const [name, entry] of Object.entries(middleware.middleware ?? {})) {
    for (const matcher of entry.matchers ?? [{ regexp: '.*' }]) {
      const hits = touched(matcher.regexp);
      if (hits.length) reasons.push(`middleware-manifest.json: middleware ${name} runs on ${hits[0]}`);
    }
  }
  const functions = readJson(distDir, 'server/functions-config-manifest.json');
  for (const [name, entry] of Object.entries(functions.functions ?? {})) {
    if (!name.includes('middleware') && !name.includes('proxy')) continue;
    for (const matcher of entry.matchers ?? [{ regexp: '.*' }]) {
      const hits = touched(matcher.regexp);
      if (hits.length) reasons.push(`functions-config-manifest.json: the proxy runs on ${hits[0]}`);
    }
  }
}

function checkRoutes(distDir, reasons) {
  const appPaths = readJson(distDir, 'server/app-paths-manifest.json');
  for (const { page } of DIRECT_ROUTES) {
    const file = appPaths[`${page}/route`];
    if (file !== `app${page}/route.js`) reasons.push(`app-paths-manifest.json: ${page} is ${file ? `at ${file}` : 'not a route handler'}`);
  }
  // Any other route under /plants/ would be Next's choice over [id], and the direct path's pattern
  // does not know it; nor may a page (or a pages-router file) claim a direct path.
  const direct = new Set(DIRECT_ROUTES.map(({ page }) => `${page}/route`));
  const allowed = new Set(NEXT_ONLY_UNDER_PLANTS.map((name) => `/plants/${name}/route`));
  for (const key of Object.keys(appPaths)) {
    if (key.startsWith('/plants') && !direct.has(key) && !allowed.has(key)) reasons.push(`app-paths-manifest.json: ${key} is not known to the direct path`);
  }
  for (const page of Object.keys(readJson(distDir, 'server/pages-manifest.json'))) {
    if (DIRECT_PATH_SAMPLES.includes(page) || page.startsWith('/plants')) reasons.push(`pages-manifest.json: ${page} is a page`);
  }
  const prerendered = readJson(distDir, 'prerender-manifest.json');
  for (const route of [...Object.keys(prerendered.routes ?? {}), ...Object.keys(prerendered.dynamicRoutes ?? {})]) {
    if (DIRECT_ROUTES.some(({ page }) => page === route) || DIRECT_PATH_SAMPLES.includes(route)) reasons.push(`prerender-manifest.json: ${route} is prerendered`);
  }
}

function checkConfig(dir, reasons) {
  const { config } = JSON.parse(readFileSync(path.join(dir, '.next', 'required-server-files.json'), 'utf8'));
  if (config.basePath) reasons.push(`next.config: basePath is "${config.basePath}"`);
  if (config.i18n) reasons.push('next.config: i18n is configured');
  if (config.trailingSlash) reasons.push('next.config: trailingSlash is on');
  if (config.skipTrailingSlashRedirect) reasons.push('next.config: skipTrailingSlashRedirect is on');
  if (config.poweredByHeader !== false) reasons.push('next.config: poweredByHeader is on (Next would add X-Powered-By)');
  if (config.compress === false) reasons.push('next.config: compress is off (the direct path gzips as Next does)');
}

/**
 * Why the build in `dir` (the standalone folder) is not one the direct path may answer for; empty
 * when it is. Reads only files: the route modules are checked as they load (checkRouteModule, next-internals.mjs).
 * @param {string} dir
 * @returns {string[]}
 */
export function checkBuild(dir) {
  const reasons = [];
  const distDir = path.join(dir, '.next');
  try {
    const nextPackage = createRequire(path.join(dir, 'server.js')).resolve('next/package.json');
    const { version } = JSON.parse(readFileSync(nextPackage, 'utf8'));
    if (version !== NEXT_VERSION) reasons.push(`next is ${version}, the direct path was written against ${NEXT_VERSION}`);
    for (const [file, version] of Object.entries(MANIFEST_VERSIONS)) {
      const found = existsSync(path.join(distDir, file)) ? readJson(distDir, file).version : 'missing';
      if (found !== version) reasons.push(`${file}: version ${found}, expected ${version}`);
    }
    if (reasons.length) return reasons;
    checkConfig(dir, reasons);
    checkRoutesManifest(distDir, reasons);
    checkProxy(distDir, reasons);
    checkRoutes(distDir, reasons);
  } catch (error) {
    reasons.push(`the build could not be read: ${error?.message ?? error}`);
  }
  return reasons;
}

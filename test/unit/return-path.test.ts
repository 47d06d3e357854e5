// Return paths: every value a crafted link could carry ends on this site. The values are as the
// server receives them, after the query string is decoded once.
import { describe, expect, it } from 'vitest';
import { returnPathOn, safeReturnPath } from '../../lib/auth/sessions/return-path';

const SITE = 'https://plants.example';

/** Where a browser at SITE ends up when sent to `location`. */
const destination = (location: string) => new URL(location, `${SITE}/login`);

// [value, what it must become]
const HOSTILE: [unknown, string][] = [
  ['//evil.example', '/'],
  ['///evil.example', '/'],
  ['//evil.example/%2F..', '/'],
  ['/\\evil.example', '/'],
  ['\\\\evil.example', '/'],
  ['/\\/evil.example', '/'],
  ['/./\\evil.example', '/'],
  ['/\t/evil.example', '/'],
  ['/\n/evil.example', '/'],
  ['/\r/evil.example', '/'],
  ['/\r\nSet-Cookie: session=stolen', '/'],
  ['/ /evil.example', '/'],
  [' /evil.example', '/'],
  ['/\u0000/evil.example', '/'],
  ['/\u001b[2J', '/'],
  ['/\u007f/evil.example', '/'],
  ['/\u0085/evil.example', '/'],
  ['/\u00a0/evil.example', '/'],
  ['/\u2028/evil.example', '/'],
  ['/\u3000/evil.example', '/'],
  ['/\ufeff/evil.example', '/'],
  ['/.//evil.example', '/'],
  ['/..//evil.example', '/'],
  ['/a/../..//evil.example', '/'],
  ['https://evil.example', '/'],
  ['http:evil.example', '/'],
  ['http:/evil.example', '/'],
  ['evil.example', '/'],
  ['javascript:alert(document.cookie)', '/'],
  ['JaVaScRiPt:alert(1)', '/'],
  ['data:text/html,<script>alert(1)</script>', '/'],
  ['?next=//evil.example', '/'],
  ['#//evil.example', '/'],
  ['', '/'],
  [undefined, '/'],
  [null, '/'],
  [42, '/'],
  [['//evil.example', '/tokens'], '/'],
  [`/${'a'.repeat(3000)}`, '/'],
  // Encoded forms stay encoded: a browser reads them as one path segment on this site.
  ['/%09/evil.example', '/%09/evil.example'],
  ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ['/%5C%5Cevil.example', '/%5C%5Cevil.example'],
  ['/%0d%0aSet-Cookie:x=y', '/%0d%0aSet-Cookie:x=y'],
  // Slashes from elsewhere in Unicode are not slashes to a URL parser; they are percent-encoded.
  ['/\u2215\u2215evil.example', '/%E2%88%95%E2%88%95evil.example'],
  ['/\uff0f\uff0fevil.example', '/%EF%BC%8F%EF%BC%8Fevil.example'],
  ['/\u2044evil.example', '/%E2%81%84evil.example'],
  ['/@evil.example', '/@evil.example'],
];

const BENIGN: [string, string][] = [
  ['/', '/'],
  ['/tokens', '/tokens'],
  ['/docs?tab=plants#create', '/docs?tab=plants#create'],
  ['/plants/../tokens', '/tokens'],
  ['/Café', '/Caf%C3%A9'],
];

describe('safeReturnPath', () => {
  it.each(HOSTILE)('%j becomes %j, a path on this site', (value, expected) => {
    const path = safeReturnPath(value);
    expect(path).toBe(expected);
    expect(destination(path).origin).toBe(SITE);
    // Nothing a header or a browser could trip over.
    expect(path).toMatch(/^\/[\x21-\x7e]*$/);
  });

  it.each(BENIGN)('keeps %j as %j', (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });

  it(`has at least 30 hostile cases`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });
});

describe('returnPathOn (absolute URLs next-auth makes on its own origin)', () => {
  it.each([
    [SITE, '/'],
    [`${SITE}/`, '/'],
    [`${SITE}/tokens?x=1`, '/tokens?x=1'],
    [`${SITE}//evil.example`, '/'],
    [`${SITE}/\t/evil.example`, '/'],
    [`${SITE}.evil.example/`, '/'],
    [`${SITE}@evil.example/`, '/'],
    ['https://evil.example/tokens', '/'],
    ['/tokens', '/tokens'],
    ['//evil.example', '/'],
  ])('%j on the site becomes %j', (value, expected) => {
    expect(returnPathOn(SITE, value)).toBe(expected);
  });
});

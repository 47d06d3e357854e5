// The request target, made one every router takes the same way, before either sees it
// (server/main.ts). Next's router answers some targets with a 500 (an asterisk, a path whose
// escapes are not UTF-8), and an absolute-form target's authority with a redirect to it; the direct
// path would leave them to Next. Here they get one answer on both paths.

/** What to do with a request's target: serve it (perhaps rewritten to origin form), or refuse it. */
export type TargetVerdict = { serve: string } | { refuse: 'bad_request' | 'asterisk' };

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * `target` as an origin-form target (`/path?query`), or why it cannot be. An absolute-form target's
 * scheme and authority are dropped, as Host is: nothing here may name an origin a client chose.
 */
export function settleTarget(target: string): TargetVerdict {
  let originForm = target;
  if (target === '*') return { refuse: 'asterisk' };
  if (!target.startsWith('/')) {
    const authority = ABSOLUTE_FORM.exec(target);
    if (!authority) return { refuse: 'bad_request' };
    originForm = target.slice(authority[0].length);
    if (!originForm.startsWith('/')) originForm = `/${originForm}`;
  }
  const queryAt = originForm.indexOf('?');
  const path = queryAt === -1 ? originForm : originForm.slice(0, queryAt);
  try {
    decodeURIComponent(path);
  } catch {
    return { refuse: 'bad_request' };
  }
  return { serve: originForm };
}

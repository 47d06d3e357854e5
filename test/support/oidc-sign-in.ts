// Signing in through the test provider (test/support/oidc-provider.ts) as a browser does, with fetch:
// the sign-in page's button (next-auth's sign-in POST for the provider), the provider's own sign-in
// and consent pages, then the provider's redirect back to /api/auth/callback/oidc. Two cookie jars,
// one per site, as a browser keeps them.
import { browser, keepCookies, type Browser } from './accounts';

export type ProviderSignIn = {
  /** The app's browser, signed in when the callback succeeded. */
  app: Browser;
  /** Where the callback sent the browser: a path on the app. */
  location: string;
  /** The refusal's code on the sign-in page (`/login?error=...`), or null. */
  refusal: string | null;
  /** Whether the app set a session cookie. */
  signedIn: boolean;
};

/** A cookie jar for the provider's site. */
function providerJar() {
  const jar = new Map<string, string>();
  return async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { redirect: 'manual', ...init, headers });
    keepCookies(jar, response);
    return response;
  };
}

/** `app`, its requests sent through a proxy that says they come from `address` (X-Forwarded-For; the server must trust loopback's). */
export function fromAddress(app: Browser, address: string): Browser {
  return {
    cookie: () => app.cookie(),
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('x-forwarded-for', address);
      return app.fetch(path, { ...init, headers });
    },
  };
}

/** The provider's authorization URL the app sends the browser to, from the sign-in page's button. */
export async function pressProviderButton(app: Browser, callbackUrl = '/'): Promise<{ status: number; url: string | null }> {
  const { csrfToken } = (await (await app.fetch('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await app.fetch('/api/auth/signin/oidc', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken, callbackUrl, json: 'true' }),
  });
  const text = await response.text();
  try {
    return { status: response.status, url: (JSON.parse(text) as { url?: string }).url ?? null };
  } catch {
    return { status: response.status, url: null };
  }
}

/**
 * Signs in to the app at `appUrl` as `login` at the provider: presses the button, signs in and
 * consents at the provider (or cancels there, with `cancel`), and follows the provider back to the
 * app's callback, which `editCallback` may change first (a tampered `state`).
 */
export async function signInThroughProvider(
  appUrl: string,
  login: string,
  options: { cancel?: boolean; editCallback?: (url: URL) => void; app?: Browser; address?: string } = {},
): Promise<ProviderSignIn> {
  const app = options.app ?? (options.address ? fromAddress(browser(appUrl), options.address) : browser(appUrl));
  const pressed = await pressProviderButton(app);
  if (!pressed.url) throw new Error(`the sign-in button answered ${pressed.status} without a URL`);
  const provider = providerJar();
  let next = pressed.url;
  for (let step = 0; !next.startsWith(appUrl); step++) {
    if (step > 12) throw new Error(`the provider never sent the browser back (last at ${next})`);
    const response = await provider(next);
    const location = response.headers.get('location');
    if (location) {
      next = new URL(location, next).href;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`the provider answered ${response.status} at ${next}: ${page.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`no form on the provider's page at ${next}`);
    if (options.cancel) {
      const abort = /href="([^"]*\/abort)"/.exec(page)?.[1];
      if (!abort) throw new Error(`no way to cancel on the provider's page at ${next}`);
      next = new URL(abort, next).href;
      continue;
    }
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
    const submitted = await provider(new URL(action, next).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    const after = submitted.headers.get('location');
    if (!after) throw new Error(`the provider answered its ${prompt} form with ${submitted.status}`);
    next = new URL(after, next).href;
  }
  const callback = new URL(next);
  options.editCallback?.(callback);
  const answer = await app.fetch(`${callback.pathname}${callback.search}`);
  await answer.body?.cancel();
  const location = answer.headers.get('location') ?? '';
  const refusal = new URL(location || '/', appUrl).searchParams.get('error');
  return { app, location, refusal, signedIn: app.cookie().includes('next-auth.session-token=') };
}

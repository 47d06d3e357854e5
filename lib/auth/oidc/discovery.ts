// The provider's endpoints, read from its discovery document (OIDC_ISSUER/.well-known/openid-configuration)
// and kept: next-auth would otherwise fetch the document again for every sign-in started and every
// answer, so anyone pressing the button would make this server fetch from the provider. Kept an hour
// (a provider moves its endpoints rarely, and its signing keys are read from its JWKS for each answer
// anyway); a fetch that fails is kept a few seconds, so a provider that is down is not asked once
// per click. Concurrent sign-ins share one fetch. The document must name the configured issuer, as
// the ID tokens it signs will (OpenID Connect Discovery 1.0, section 4.3).
import 'server-only';
import { log } from '../../log';
import { countOidcDiscovery } from '../../metrics/registry';
import { processWide } from '../../process-wide';
import { now as clockNow } from '../../shared/clock';
import { inSpan, SpanKind } from '../../tracing/spans';
import type { OidcConfig } from './config';

export type OidcEndpoints = {
  issuer: string;
  authorization: string;
  token: string;
  jwks: string;
  userinfo: string | null;
};

export const DISCOVERY_KEPT_MS = 60 * 60 * 1000;
const FAILURE_KEPT_MS = 5 * 1000;
const FETCH_TIMEOUT_MS = 5 * 1000;
// A discovery document is a few kilobytes; nothing bigger is read.
const DOCUMENT_LIMIT_BYTES = 64 * 1024;

/** The provider's discovery could not be read: its reason is in the log. */
export class OidcDiscoveryError extends Error {}

type Kept = { issuer: string; at: number; value: Promise<OidcEndpoints>; settled?: OidcEndpoints | 'failed' };
const kept = processWide<{ current?: Kept }>('oidc-discovery', () => ({}));

const withoutSlash = (url: string) => url.replace(/\/+$/, '');

/** An endpoint as a document names it: https, or http on this machine (a test's provider). */
function endpoint(document: Record<string, unknown>, name: string, required: boolean): string | null {
  const value = document[name];
  if (value === undefined && !required) return null;
  if (typeof value !== 'string') throw new OidcDiscoveryError(`the discovery document has no ${name}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OidcDiscoveryError(`the discovery document's ${name} is not a URL`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && loopback))) throw new OidcDiscoveryError(`the discovery document's ${name} is not https`);
  return value;
}

async function fetchEndpoints(issuer: string): Promise<OidcEndpoints> {
  const url = `${issuer}/.well-known/openid-configuration`;
  return inSpan('oidc.discovery', { kind: SpanKind.CLIENT, attributes: { 'url.full': url } }, async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error', headers: { accept: 'application/json' } });
    if (!response.ok) throw new OidcDiscoveryError(`${url} answered ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > DOCUMENT_LIMIT_BYTES) throw new OidcDiscoveryError(`${url} is over ${DOCUMENT_LIMIT_BYTES} bytes`);
    const text = await response.text();
    if (text.length > DOCUMENT_LIMIT_BYTES) throw new OidcDiscoveryError(`${url} is over ${DOCUMENT_LIMIT_BYTES} bytes`);
    let document: Record<string, unknown>;
    try {
      document = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new OidcDiscoveryError(`${url} is not JSON`);
    }
    if (typeof document !== 'object' || document === null) throw new OidcDiscoveryError(`${url} is not a JSON object`);
    if (typeof document.issuer !== 'string' || withoutSlash(document.issuer) !== issuer) {
      throw new OidcDiscoveryError(`${url} names the issuer ${JSON.stringify(document.issuer)}, not OIDC_ISSUER (${issuer})`);
    }
    return {
      issuer: document.issuer,
      authorization: endpoint(document, 'authorization_endpoint', true)!,
      token: endpoint(document, 'token_endpoint', true)!,
      jwks: endpoint(document, 'jwks_uri', true)!,
      userinfo: endpoint(document, 'userinfo_endpoint', false),
    };
  });
}

/** The provider's endpoints: kept ones, or read now; throws OidcDiscoveryError when they cannot be read. */
export function oidcEndpoints(config: OidcConfig, now = clockNow()): Promise<OidcEndpoints> {
  const current = kept.current;
  if (current && current.issuer === config.issuer) {
    const age = now - current.at;
    if (!current.settled || (current.settled === 'failed' ? age < FAILURE_KEPT_MS : age < DISCOVERY_KEPT_MS)) return current.value;
  }
  const value = fetchEndpoints(config.issuer).catch((error: unknown) => {
    throw error instanceof OidcDiscoveryError ? error : new OidcDiscoveryError(error instanceof Error ? error.message : String(error));
  });
  const entry: Kept = { issuer: config.issuer, at: now, value };
  kept.current = entry;
  entry.value.then(
    (endpoints) => {
      entry.settled = endpoints;
      countOidcDiscovery('success');
    },
    (error: unknown) => {
      entry.settled = 'failed';
      countOidcDiscovery('failure');
      log.error('could not read the identity provider\'s discovery document', { issuer: config.issuer, error: error instanceof Error ? error.message : String(error) });
    },
  );
  return entry.value;
}

/** The endpoints read last, while they are still kept, without reading them: next-auth's provider is built with them. */
export function keptOidcEndpoints(config: OidcConfig): OidcEndpoints | null {
  const settled = kept.current?.issuer === config.issuer ? kept.current.settled : undefined;
  return settled && settled !== 'failed' ? settled : null;
}

// What the sign-in tests use of oidc-provider (test/support/oidc-provider.ts), which ships no types.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  type KoaContext = { path: string; status: number; body: unknown };
  type Account = { accountId: string; claims: () => Record<string, unknown> };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount?: (ctx: unknown, id: string) => Account });
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    on(event: 'server_error', listener: (ctx: unknown, error: Error) => void): void;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}

// The accounts the e2e server is seeded with, and where that server listens: an admin (the
// account every existing journey signs in with) and a staff member.
import { DEFAULT_E2E_PORT } from '../../scripts/test-prerequisites.mjs';

export const E2E_PORT = Number(process.env.E2E_PORT ?? DEFAULT_E2E_PORT);
export const STAFF_EMAIL = 'gardener@example.com';
export const STAFF_PASSWORD = 'correct horse battery staple';
export const MEMBER_EMAIL = 'potter@example.com';
export const MEMBER_PASSWORD = 'terracotta pots and trowels';
/** The e2e server's identity provider (e2e/support/serve.ts): its name, and the one domain whose people get an account on their first sign-in. */
export const OIDC_NAME = 'Plant Store SSO';
export const OIDC_ALLOWED_DOMAIN = 'sso.example.org';

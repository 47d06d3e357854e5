// A second e2e server, for the journeys of email (e2e/mail.spec.ts): like serve.ts, a temporary
// database seeded with an admin and a staff member and the production build (seeded-server.ts),
// but sending email through the journey's SMTP server (MAIL_E2E_SMTP_URL) and listening on
// MAIL_E2E_PORT. Its links name http://localhost:<port> (PUBLIC_URL).
import { serveSeeded } from './seeded-server';

const port = process.env.MAIL_E2E_PORT!;

await serveSeeded({
  port,
  hostname: 'localhost',
  env: {
    PUBLIC_URL: `http://localhost:${port}`,
    SMTP_URL: process.env.MAIL_E2E_SMTP_URL,
    MAIL_FROM: 'Plant Store <plants@example.com>',
    STORE_NAME: 'The Greenhouse',
    // A message the SMTP server did not take is tried again a second later.
    MAIL_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s,1s,1s',
    // So a journey can come from a network of its own (X-Forwarded-For).
    TRUST_PROXY: '1',
  },
});

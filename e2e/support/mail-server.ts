// The journeys of email run against a server of their own (serve-mail.ts) that sends through a real
// SMTP server on loopback (test/support/smtp.ts), which the journey reads its messages from.
import { spawn, type ChildProcess } from 'node:child_process';
import { startSmtpServer, type TestSmtpServer } from '../../test/support/smtp';
import { E2E_PORT } from './staff';

/** The port of the mail journeys' server: the one after the e2e server's. */
export const MAIL_E2E_PORT = E2E_PORT + 1;
export const MAIL_E2E_URL = `http://localhost:${MAIL_E2E_PORT}`;

export type MailServer = { smtp: TestSmtpServer; url: string; stop(): Promise<void> };

export async function startMailServer(): Promise<MailServer> {
  const smtp = await startSmtpServer();
  const child: ChildProcess = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', '--conditions=react-server', 'e2e/support/serve-mail.ts'], {
    env: { ...process.env, MAIL_E2E_PORT: String(MAIL_E2E_PORT), MAIL_E2E_SMTP_URL: smtp.url },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the mail journeys server exited before answering');
    const healthy = await fetch(`${MAIL_E2E_URL}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) throw new Error('the mail journeys server did not answer within 90 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    smtp,
    url: MAIL_E2E_URL,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await smtp.stop();
    },
  };
}

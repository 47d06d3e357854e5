// A real SMTP server for tests, on loopback: the smtp-server package (nodemailer's own server side)
// takes every message, mailparser reads it as a mail client would, and the test looks at what came.
// It can be stopped and started again on the same port, to play an SMTP server that is down.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** The set-password link the plain-text part carries, if any. */
  link: string | null;
};

export type TestSmtpServer = {
  /** What SMTP_URL names it by. */
  url: string;
  port: number;
  /** Every message taken, in arrival order (duplicates included). */
  received: ReceivedMail[];
  /** Waits until `count` messages to `to` have come, or fails after `timeoutMs`. */
  waitFor(to: string, options?: { count?: number; timeoutMs?: number }): Promise<ReceivedMail[]>;
  /** Stops listening: the port refuses connections, as an SMTP server that is down. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
};

const LINK = /https?:\/\/\S+\/set-password#[\w-]+/;

export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (mail) => {
            received.push({
              from: mail.from?.text ?? '',
              to: (session.envelope.rcptTo ?? []).map((recipient) => recipient.address),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              messageId: mail.messageId ?? '',
              link: LINK.exec(mail.text ?? '')?.[0] ?? null,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
  let server = make();
  const listen = (on: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(on, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
    });
  const boundPort = await listen(port);
  return {
    url: `smtp://127.0.0.1:${boundPort}`,
    port: boundPort,
    received,
    async waitFor(to, { count = 1, timeoutMs = 15_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter((mail) => mail.to.includes(to));
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`${matching.length} of ${count} messages to ${to} came within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = make();
      await listen(boundPort);
    },
  };
}

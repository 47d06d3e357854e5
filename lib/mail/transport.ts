// Sending one message through the SMTP server (SMTP_URL), with nodemailer. One transport per
// process; each message opens its own connection (few messages are ever sent, and a connection
// kept open would only go stale). Every wait is bounded, so a server that stops answering fails
// the attempt, which the outbox retries, instead of holding it.
import 'server-only';
import { createTransport, type Transporter } from 'nodemailer';
import { processWide } from '../process-wide';
import { settings } from '../settings';
import { mailFrom, mailOrigin } from './config';

// How long to wait for the connection, for the server's greeting, and for any answer after it.
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

const transport = processWide('mail-transport', () => ({ current: undefined as Transporter | undefined }));

function transporter(): Transporter {
  return (transport.current ??= createTransport(settings().SMTP_URL!, {
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: GREETING_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
  }));
}

export type OutgoingMail = { id: string; to: string; subject: string; text: string; html: string };

/** Hands the message to the SMTP server; throws when it is not accepted. */
export async function sendMail(mail: OutgoingMail): Promise<void> {
  await transporter().sendMail({
    from: mailFrom(),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // The outbox's id: a message sent twice (at least once) shows as the same one.
    messageId: `<${mail.id}@${new URL(mailOrigin()).hostname}>`,
  });
}

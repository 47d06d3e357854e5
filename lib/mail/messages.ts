// The messages this service sends, each as a plain-text part and a simple HTML part with the same
// words. Every value put into the HTML is escaped: an address is the only thing in a message a
// stranger chose, and it must not become markup in the recipient's mail client.
import 'server-only';

export const MAIL_KINDS = ['invitation', 'password_reset', 'forgot_password'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export type ComposedMail = { subject: string; text: string; html: string };

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

type Wording = { subject: string; lead: string; action: string; closing: string };

function wordingOf(kind: MailKind, store: string, email: string): Wording {
  switch (kind) {
    case 'invitation':
      return {
        subject: `Your staff account at ${store}`,
        lead: `An admin of ${store} has made you a staff account, ${email}. Set your password to sign in.`,
        action: 'Set your password',
        closing: 'If you did not expect this, you can ignore this message.',
      };
    case 'password_reset':
      return {
        subject: `Set a new password for ${store}`,
        lead: `An admin of ${store} has reset the password of your staff account, ${email}. Set a new one to sign in again.`,
        action: 'Set a new password',
        closing: 'If you did not expect this, ask an admin of the store.',
      };
    case 'forgot_password':
      return {
        subject: `Set a new password for ${store}`,
        lead: `Someone, hopefully you, asked to set a new password for the staff account ${email} at ${store}.`,
        action: 'Set a new password',
        closing: 'If it was not you, ignore this message: your password stays as it is.',
      };
  }
}

/** The message of `kind` for `email`, carrying `link` (which works once, until `lifetimeHours` have passed). */
export function composeMail(kind: MailKind, options: { store: string; email: string; link: string; lifetimeHours: number }): ComposedMail {
  const { store, email, link, lifetimeHours } = options;
  const words = wordingOf(kind, store, email);
  const lifetime = `The link works once, for ${lifetimeHours} hours.`;
  const text = [`Hello,`, words.lead, `${words.action}:`, link, lifetime, words.closing, `— ${store}`].join('\n\n') + '\n';
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(words.subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #1d2b21">
<p>Hello,</p>
<p>${e(words.lead)}</p>
<p><a href="${e(link)}" style="display: inline-block; padding: 0.5em 1em; background: #2f6b3f; color: #fff; text-decoration: none; border-radius: 4px">${e(words.action)}</a></p>
<p>Or copy this address into your browser:<br>${e(link)}</p>
<p>${e(lifetime)}</p>
<p>${e(words.closing)}</p>
<p>— ${e(store)}</p>
</body></html>
`;
  return { subject: words.subject, text, html };
}

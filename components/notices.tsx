// A page's messages: successes in a status region, failures in an alert region. Both regions are
// always present, so assistive technology is listening before a message arrives and the page does
// not move when one appears.
import type { ReactNode } from 'react';

export type Notice = { kind: 'success' | 'error'; text: string } | null;

/**
 * A failure's alert region: shown as an error while it holds a message, empty and hidden otherwise
 * (`.notice:empty`). Keep it in the page while there is nothing to say, so that the message is
 * announced when it arrives. A span where it sits in a line of buttons.
 */
export function Alert({ children, id, as: Element = 'p' }: { children?: ReactNode; id?: string; as?: 'p' | 'span' }) {
  const holdsMessage = children !== undefined && children !== null && children !== false && children !== '';
  return (
    <Element id={id} role="alert" className={holdsMessage ? 'notice error' : 'notice'}>
      {children}
    </Element>
  );
}

export function Notices({ notice, className = 'notice-area' }: { notice: Notice; className?: string }) {
  return (
    <div className={className}>
      <p role="status" className={notice?.kind === 'success' ? 'notice success' : 'notice'}>
        {notice?.kind === 'success' ? notice.text : ''}
      </p>
      <Alert>{notice?.kind === 'error' ? notice.text : ''}</Alert>
    </div>
  );
}

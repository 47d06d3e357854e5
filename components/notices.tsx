// A page's messages: successes in a status region, failures in an alert region. Both regions are
// always present, so assistive technology is listening before a message arrives and the page does
// not move when one appears.
export type Notice = { kind: 'success' | 'error'; text: string } | null;

export function Notices({ notice, className = 'notice-area' }: { notice: Notice; className?: string }) {
  return (
    <div className={className}>
      <p role="status" className={notice?.kind === 'success' ? 'notice success' : 'notice'}>
        {notice?.kind === 'success' ? notice.text : ''}
      </p>
      <p role="alert" className={notice?.kind === 'error' ? 'notice error' : 'notice'}>
        {notice?.kind === 'error' ? notice.text : ''}
      </p>
    </div>
  );
}

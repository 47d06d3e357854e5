// A fixed UTC format renders the same on the server and in every browser (no hydration mismatch).
function formatWhen(iso: string, precision: 'minute' | 'second'): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, precision === 'second' ? 19 : 16)} UTC`;
}

/** A machine-readable <time>, or `none` in muted text when there is no time to show. */
export function Timestamp({ iso, none = '-', precision = 'minute' }: { iso: string | null; none?: string; precision?: 'minute' | 'second' }) {
  return iso ? <time dateTime={iso}>{formatWhen(iso, precision)}</time> : <span className="muted">{none}</span>;
}

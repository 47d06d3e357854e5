// A fixed UTC format renders the same on the server and in every browser (no hydration mismatch).
// The day is kept on one line (a narrow column breaks it at its hyphens otherwise); the line may
// break before the time.

/** A machine-readable <time>, or `none` in muted text when there is no time to show. */
export function Timestamp({ iso, none = '-', precision = 'minute' }: { iso: string | null; none?: string; precision?: 'minute' | 'second' }) {
  if (!iso) return <span className="muted">{none}</span>;
  return (
    <time dateTime={iso}>
      <span className="nowrap">{iso.slice(0, 10)}</span> {iso.slice(11, precision === 'second' ? 19 : 16)} UTC
    </time>
  );
}

// The dashboard's charts: SVG drawn on the server with visx (its scales and shapes, React components
// with no state), so they add no JavaScript to the page and need nothing the Content-Security-Policy
// would refuse (no inline styles: colours come from classes in app/globals.css). Each has a table of
// the same figures behind a "Show as table" disclosure (<details>, no script), and says so in words
// when there is nothing to draw.
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import type { ReactNode } from 'react';
import type { Stats } from '@/lib/schemas/stats';

const number = new Intl.NumberFormat('en');
const shortDate = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dateOf = (day: string) => shortDate.format(new Date(`${day}T00:00:00Z`));

const WIDTH = 640;
const HEIGHT = 200;
/** The least room left of the plot, for its marks. */
const LEFT = 40;
const BOTTOM = 24;
const TOP = 8;

/** Plants added per day: one column a day, today last. */
export function AddedPerDayChart({ perDay, titleId }: { perDay: Stats['addedPerDay']; titleId: string }) {
  const largest = Math.max(0, ...perDay.map((day) => day.count));
  if (largest === 0) return <p className="empty">No plants were added in these {perDay.length} days.</p>;
  const plotHeight = HEIGHT - BOTTOM - TOP;
  // A round top for the axis (nice), marked at nought, its middle and itself.
  const y = scaleLinear<number>({ domain: [0, largest], range: [plotHeight, 0], nice: 2 });
  const top = y.domain()[1];
  // Room on the left for the widest mark (its top), at about 7 units a character: "20,000" needs more than "40".
  const left = Math.max(LEFT, 12 + 7 * number.format(top).length);
  const x = scaleBand<string>({ domain: perDay.map((day) => day.date), range: [0, WIDTH - left], paddingInner: 0.1 });
  const labelEvery = Math.ceil(perDay.length / 6);
  return (
    <>
      <svg className="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} preserveAspectRatio="none">
        <Group left={left} top={TOP}>
          {[0, top / 2, top].map((tick) => (
            <g key={tick}>
              <line className="chart-grid" x1={0} x2={WIDTH - left} y1={y(tick)} y2={y(tick)} />
              <text className="chart-label" x={-6} y={y(tick) + 4} textAnchor="end">
                {number.format(tick)}
              </text>
            </g>
          ))}
          {perDay.map((day) => (
            <Bar key={day.date} className="chart-bar" x={x(day.date)} y={y(day.count)} width={Math.max(x.bandwidth(), 1)} height={plotHeight - y(day.count)}>
              <title>{`${dateOf(day.date)}: ${number.format(day.count)}`}</title>
            </Bar>
          ))}
          {perDay.map((day, index) => {
            if (index % labelEvery !== 0 && index !== perDay.length - 1) return null;
            // Under its column, but the last (today) ends at the plot's right edge: centred, it ran past the drawing.
            const last = index === perDay.length - 1;
            return (
              <text
                key={day.date}
                className="chart-label"
                x={last ? WIDTH - left : x(day.date)! + x.bandwidth() / 2}
                y={HEIGHT - TOP - 6}
                textAnchor={last ? 'end' : 'middle'}
              >
                {dateOf(day.date)}
              </text>
            );
          })}
        </Group>
      </svg>
      <ChartTable columns={['Day', 'Plants added']} rows={perDay.map((day) => ({ key: day.date, label: day.date, count: day.count }))} />
    </>
  );
}

type TagBar = { label: string; count: number; href?: string };

/** Plants by tag: the largest tags, then "other" and "no tag"; a tag's bar links to its plants. */
export function TagChart({ stats, titleId }: { stats: Pick<Stats, 'tags' | 'otherTags' | 'untagged' | 'total'>; titleId: string }) {
  if (stats.total === 0) return <p className="empty">No plants yet, so no tags to show.</p>;
  const bars: TagBar[] = [
    ...stats.tags.map((tag) => ({ label: tag.tag, count: tag.count, href: `/catalogue?${new URLSearchParams({ tag: tag.tag })}` })),
    ...(stats.otherTags > 0 ? [{ label: 'other tags', count: stats.otherTags }] : []),
    ...(stats.untagged > 0 ? [{ label: 'no tag', count: stats.untagged }] : []),
  ];
  const rowHeight = 26;
  const labelWidth = 170;
  const height = bars.length * rowHeight;
  // By position: a tag may be called "no tag" too.
  const y = scaleBand<number>({ domain: bars.map((_, index) => index), range: [0, height], paddingInner: 8 / rowHeight, paddingOuter: 4 / rowHeight });
  const x = scaleLinear<number>({ domain: [0, Math.max(...bars.map((bar) => bar.count))], range: [0, WIDTH - labelWidth - 70] });
  const width = (count: number) => Math.max(x(count), 2);
  const short = (label: string) => (label.length > 22 ? `${label.slice(0, 21)}…` : label);
  return (
    <>
      <svg className="chart" viewBox={`0 0 ${WIDTH} ${height}`} role="group" aria-labelledby={titleId}>
        {bars.map((bar, index) => {
          const middle = index * rowHeight + rowHeight / 2;
          const content = (
            <>
              <text className="chart-label" x={labelWidth - 8} y={middle + 4} textAnchor="end">
                {short(bar.label)}
              </text>
              <Bar className={bar.href ? 'chart-bar' : 'chart-bar muted-bar'} x={labelWidth} y={y(index)} width={width(bar.count)} height={y.bandwidth()} />
              <text className="chart-value" x={labelWidth + width(bar.count) + 6} y={middle + 4}>
                {number.format(bar.count)}
              </text>
            </>
          );
          return bar.href ? (
            // Named by its own text, the tag and its count (a label of its own would have to repeat both).
            <a key={bar.label} href={bar.href} className="chart-link">
              {content}
            </a>
          ) : (
            <g key={bar.label}>{content}</g>
          );
        })}
      </svg>
      <ChartTable columns={['Tag', 'Plants']} rows={bars.map((bar) => ({ key: bar.label, label: bar.href ? <a href={bar.href}>{bar.label}</a> : bar.label, count: bar.count }))} />
    </>
  );
}

/** A chart's text alternative: its figures as a table, behind "Show as table". */
function ChartTable({ columns, rows }: { columns: [string, string]; rows: { key: string; label: ReactNode; count: number }[] }) {
  return (
    <details className="chart-table">
      <summary>Show as table</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td>{row.label}</td>
              <td>{number.format(row.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

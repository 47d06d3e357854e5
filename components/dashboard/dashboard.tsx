// The signed-in home page's figures: totals, plants added per day over a chosen range, plants by
// tag, and for admins how webhook deliveries are going and the latest activity. Rendered on the
// server from the same figures as `GET /stats` (lib/plants/stats.ts); the range is in the address.
import Link from 'next/link';
import type { AuditRecord } from '@/lib/audit/service';
import type { Stats } from '@/lib/schemas/stats';
import { Timestamp } from '../timestamp';
import { AddedPerDayChart, TagChart } from './charts';

const number = new Intl.NumberFormat('en');

function actorName(record: AuditRecord): string {
  return record.actor.name;
}

export function Dashboard({ stats, days, activity }: { stats: Stats; days: number; activity?: AuditRecord[] }) {
  return (
    <section className="card dashboard" aria-labelledby="dashboard-heading">
      <h2 id="dashboard-heading">Overview</h2>
      <dl className="figures">
        <div>
          <dt>Plants</dt>
          <dd>{number.format(stats.total)}</dd>
        </div>
        <div>
          <dt>Added today</dt>
          <dd>{number.format(stats.addedToday)}</dd>
        </div>
        <div>
          <dt>Added in the last 7 days</dt>
          <dd>{number.format(stats.addedLast7Days)}</dd>
        </div>
        {stats.webhooks && (
          <div>
            <dt>Webhook deliveries, last 24 hours</dt>
            <dd>
              <span className="count-line">
                {number.format(stats.webhooks.succeeded)} <span className="unit">succeeded</span>,
              </span>{' '}
              <span className={stats.webhooks.failed ? 'count-line failed' : 'count-line'}>
                {number.format(stats.webhooks.failed)} <span className="unit">failed</span>
              </span>
              <span className="figure-note">
                {stats.webhooks.pending
                  ? <>{number.format(stats.webhooks.pending)} waiting, the oldest since {stats.webhooks.oldestPendingAt && <Timestamp iso={stats.webhooks.oldestPendingAt} />}</>
                  : 'none waiting'}
              </span>
            </dd>
          </div>
        )}
      </dl>

      <div className="charts">
        <figure className="chart-box">
          <figcaption>
            <h3 id="per-day-heading">Plants added per day, last {days} days</h3>
            <nav aria-label="Range" className="range">
              {[30, 90].map((range) => (
                <Link key={range} href={range === 30 ? '/' : `/?days=${range}`} aria-current={range === days ? 'true' : undefined}>
                  {range} days
                </Link>
              ))}
            </nav>
          </figcaption>
          <AddedPerDayChart perDay={stats.addedPerDay} titleId="per-day-heading" />
        </figure>
        <figure className="chart-box">
          <figcaption>
            <h3 id="tags-heading">Plants by tag</h3>
          </figcaption>
          <TagChart stats={stats} titleId="tags-heading" />
        </figure>
      </div>

      {activity && (
        <div className="activity">
          <h3>Latest activity</h3>
          {activity.length === 0 ? (
            <p className="empty">Nothing has happened yet.</p>
          ) : (
            <ul className="activity-list">
              {activity.map((record) => (
                <li key={record.id}>
                  <Timestamp iso={record.time} /> <span className="mono">{record.action}</span> {record.target.type} <span className="mono">{record.target.id}</span> by {actorName(record)}
                </li>
              ))}
            </ul>
          )}
          <p>
            <Link href="/audit">All activity</Link>
          </p>
        </div>
      )}
    </section>
  );
}

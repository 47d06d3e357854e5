import type { Metadata } from 'next';
import Link from 'next/link';
import { Alert } from '@/components/notices';
import { Timestamp } from '@/components/timestamp';
import { AUDIT_ACTIONS } from '@/lib/audit/actions';
import { listAuditRecords, type AuditRecord } from '@/lib/audit/service';
import { requireAdmin } from '@/lib/auth/sessions/current-staff';
import { ApiError } from '@/lib/errors';
import { stringifyJson } from '@/lib/shared/json';
import { describeIssues } from '@/lib/shared/validation';
import { ListAuditEventsQuery } from '@/lib/schemas/audit';

export const metadata: Metadata = { title: 'Activity · Plant Store' };

const PAGE_SIZE = 50;

type Search = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** /audit with these filters (empty ones left out). */
function hrefWith(filters: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const text = query.toString();
  return text ? `/audit?${text}` : '/audit';
}

function Actor({ actor }: { actor: AuditRecord['actor'] }) {
  const kind = actor.type === 'token' ? 'API token' : actor.type === 'staff' ? 'Staff' : 'System';
  return (
    <span className="actor">
      {kind}: {actor.name}
      {'id' in actor && actor.id && <span className="mono muted small"> ({actor.id})</span>}
    </span>
  );
}

function Target({ target }: { target: AuditRecord['target'] }) {
  const label = `${target.type} ${target.id}`;
  // A plant's target links to its whole history.
  return target.type === 'plant' ? (
    <Link href={hrefWith({ target: `plant:${target.id}` })} aria-label={`History of plant ${target.id}`}>
      {label}
    </Link>
  ) : (
    <span className="mono">{label}</span>
  );
}

function Changes({ record }: { record: AuditRecord }) {
  const parts: [string, string][] = [];
  if (record.before) parts.push(['Before', stringifyJson(record.before)]);
  if (record.after) parts.push(['After', stringifyJson(record.after)]);
  if (record.requestId) parts.push(['Request', record.requestId]);
  if (record.clientAddress) parts.push(['From', record.clientAddress]);
  if (parts.length === 0) return null;
  return (
    <dl className="changes">
      {parts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd className="mono">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  await requireAdmin('/audit');
  const search = await searchParams;
  const filters = { action: first(search.action) || undefined, actor: first(search.actor)?.trim() || undefined, target: first(search.target) || undefined };
  const cursor = first(search.cursor) || undefined;
  const parsed = ListAuditEventsQuery.safeParse({ ...filters, cursor });
  let problem = parsed.success ? null : describeIssues(parsed.error.issues);
  let page: Awaited<ReturnType<typeof listAuditRecords>> = { records: [], nextCursor: null };
  if (parsed.success) {
    try {
      page = await listAuditRecords({ ...parsed.data, limit: PAGE_SIZE });
    } catch (error) {
      // A cursor of the right shape that is no cursor of ours.
      if (!(error instanceof ApiError)) throw error;
      problem = error.message;
    }
  }

  return (
    <>
      <section className="card" aria-labelledby="audit-heading">
        <h1 id="audit-heading">Activity</h1>
        <p className="muted">
          Every change to plants, tokens and webhooks, and every sign-in, with who made it. Records are never changed.
        </p>
        <form method="get" action="/audit" className="filters">
          <div className="field">
            <label htmlFor="audit-action">Action</label>
            <select id="audit-action" name="action" defaultValue={filters.action ?? ''}>
              <option value="">All actions</option>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-actor">Actor</label>
            <input id="audit-actor" name="actor" defaultValue={filters.actor ?? ''} placeholder="email, tok_…, usr_… or system" autoComplete="off" />
          </div>
          {filters.target && <input type="hidden" name="target" value={filters.target} />}
          <div className="actions">
            <button type="submit">Filter</button>
          </div>
        </form>
        {filters.target && (
          <p>
            Showing the history of <strong>{filters.target.replace(':', ' ')}</strong>.{' '}
            <Link href={hrefWith({ action: filters.action, actor: filters.actor })}>Show everything</Link>
          </p>
        )}
        <Alert>{problem}</Alert>
      </section>

      <section className="card" aria-labelledby="records-heading">
        <h2 id="records-heading">{cursor ? 'Older records' : 'Newest records'}</h2>
        {page.records.length === 0 ? (
          <p className="muted">No records match.</p>
        ) : (
          <ol className="records">
            {page.records.map((record) => (
              <li key={record.id}>
                <p className="record-head">
                  <strong>{record.action}</strong> <Target target={record.target} /> <span className="muted">by</span>{' '}
                  <Actor actor={record.actor} /> <span className="muted">·</span> <Timestamp iso={record.time} precision="second" />
                </p>
                <Changes record={record} />
              </li>
            ))}
          </ol>
        )}
        <nav className="pager" aria-label="Pages">
          {cursor && <Link href={hrefWith(filters)}>Newest records</Link>}
          {page.nextCursor && <Link href={hrefWith({ ...filters, cursor: page.nextCursor })}>Older records</Link>}
        </nav>
      </section>
    </>
  );
}

'use client';
// The catalogue's list: a page of plants with Edit and Delete on each row (and, for admins, a link
// to the plant's history in the activity log), and Download CSV for the current filter. Every change goes through the API with the page's token and the row's ETag, so
// someone else's change in between is never overwritten unseen (the API answers 412).
import Link from 'next/link';
import { useCallback, useRef, useState } from 'react';
import { Notices, type Notice } from '../notices';
import { Timestamp } from '../timestamp';
import { useBearer, type SessionToken } from '../use-session-token';
import { DeletePlantDialog } from './delete-plant-dialog';
import { DownloadCsvButton } from './download-csv-button';
import { EditPlantDialog } from './edit-plant-dialog';
import type { CatalogueRow } from './versioned-row';

export type CatalogueFilter = { q?: string; tag?: string };

/** The filter in words: names containing “fern”, with the tag “outdoor”. */
export function describeFilter({ q, tag }: CatalogueFilter): string {
  return [q && `names containing “${q}”`, tag && `the tag “${tag}”`].filter(Boolean).join(', with ');
}

function filterQuery(filter: CatalogueFilter, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  if (filter.q) query.set('q', filter.q);
  if (filter.tag) query.set('tag', filter.tag);
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  return query.size ? `?${query}` : '';
}

export function CatalogueView(props: {
  sessionToken: SessionToken;
  rows: CatalogueRow[];
  filter: CatalogueFilter;
  olderCursor: string | null;
  newerCursor: string | null;
  /** Whether each row links to its plant's history (/audit is for admins). */
  showHistory: boolean;
}) {
  const { filter, olderCursor, newerCursor, showHistory } = props;
  const [rows, setRows] = useState(props.rows);
  const [open, setOpen] = useState<{ kind: 'edit' | 'delete'; row: CatalogueRow } | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const showError = useCallback((text: string) => setNotice({ kind: 'error', text }), []);
  const token = useBearer(props.sessionToken, `/catalogue${filterQuery(filter)}`, showError);

  const filtered = Boolean(filter.q || filter.tag);
  const replace = (next: CatalogueRow) => setRows((shown) => shown.map((row) => (row.id === next.id ? next : row)));
  const remove = (gone: CatalogueRow, text: string) => {
    setRows((shown) => shown.filter((row) => row.id !== gone.id));
    setOpen(null);
    setNotice({ kind: 'success', text });
    // Its row, and the button that opened the dialog, are gone: the list's heading takes focus.
    requestAnimationFrame(() => heading.current?.focus());
  };

  return (
    <section className="card" aria-labelledby="results-heading">
      <div className="results-head">
        <h2 id="results-heading" ref={heading} tabIndex={-1}>
          {filtered ? 'Plants found' : 'Plants'}
        </h2>
        <DownloadCsvButton token={token} query={filterQuery(filter)} onNotice={setNotice} />
      </div>
      <p className="muted">
        {filtered ? `Plants with ${describeFilter(filter)}, newest first.` : 'Every plant, newest first.'} Download CSV exports all of them.
      </p>
      <Notices notice={notice} className="notice-area compact" />

      {rows.length === 0 ? (
        <p className="empty">
          {filtered ? (
            <>No plants match: none has {describeFilter(filter)}.</>
          ) : newerCursor ? (
            <>No older plants.</>
          ) : (
            <>
              No plants yet. <Link href="/">Add one</Link>, or <Link href="/import">import a CSV file</Link>.
            </>
          )}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="catalogue">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Tag</th>
                <th scope="col">ID</th>
                <th scope="col" className="optional">
                  Added
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>{row.name}</td>
                  <td>{row.tag ?? <span className="muted">none</span>}</td>
                  <td className="mono">{row.id}</td>
                  <td className="optional">
                    <Timestamp iso={row.addedAt} />
                  </td>
                  <td>
                    <div className="row-actions">
                      <button type="button" className="secondary" onClick={() => (setNotice(null), setOpen({ kind: 'edit', row }))}>
                        Edit<span className="visually-hidden"> {row.name}</span>
                      </button>
                      <button type="button" className="secondary" onClick={() => (setNotice(null), setOpen({ kind: 'delete', row }))}>
                        Delete<span className="visually-hidden"> {row.name}</span>
                      </button>
                      {showHistory && (
                        <Link className="history-link" href={`/audit?${new URLSearchParams({ target: `plant:${row.id}` })}`}>
                          History<span className="visually-hidden"> of {row.name}</span>
                        </Link>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {(newerCursor || olderCursor) && (
        <nav aria-label="Pages" className="pager">
          {newerCursor ? <Link href={`/catalogue${filterQuery(filter, { newer: newerCursor })}`}>← Newer plants</Link> : <span />}
          {olderCursor && <Link href={`/catalogue${filterQuery(filter, { cursor: olderCursor })}`}>Older plants →</Link>}
        </nav>
      )}

      {open?.kind === 'edit' && (
        <EditPlantDialog
          row={open.row}
          token={token}
          onClose={() => setOpen(null)}
          onCurrent={replace}
          onSaved={(saved) => {
            replace(saved);
            setOpen(null);
            setNotice({ kind: 'success', text: `Saved “${saved.name}”.` });
          }}
          onGone={(gone) => remove(gone, `“${gone.name}” had already been deleted by someone else.`)}
        />
      )}
      {open?.kind === 'delete' && (
        <DeletePlantDialog
          row={open.row}
          token={token}
          onClose={() => setOpen(null)}
          onCurrent={replace}
          onDeleted={(deleted, already) => remove(deleted, already ? `“${deleted.name}” had already been deleted by someone else.` : `Deleted “${deleted.name}”.`)}
        />
      )}
    </section>
  );
}

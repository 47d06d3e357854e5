'use client';
// The catalogue's list: a page of plants with Edit and Delete on each row (and, for admins, a link
// to the plant's history in the activity log), columns sorted through the API's `sort`, the count
// of what the filter matches, rows selected for one deletion, and Download CSV for the current
// filter. Every change goes through the API with the page's token and the row's ETag, so someone
// else's change in between is never overwritten unseen (the API answers 412).
import Link from 'next/link';
import { useCallback, useRef, useState } from 'react';
import type { PlantSortValue } from '@/lib/schemas/list';
import { DataTable, TimeCell } from '../data-table';
import { Notices, type Notice } from '../notices';
import { useBearer, type SessionToken } from '../use-session-token';
import { BulkDeleteDialog, type BulkOutcome } from './bulk-delete-dialog';
import { DeletePlantDialog } from './delete-plant-dialog';
import { DownloadCsvButton } from './download-csv-button';
import { EditPlantDialog } from './edit-plant-dialog';
import { RowMenu } from './row-menu';
import type { CatalogueRow } from './versioned-row';
import { ScriptButton } from '../script-button';

export type CatalogueFilter = { q?: string; tag?: string };

/** The filter in words: names containing “fern”, with the tag “outdoor”. */
export function describeFilter({ q, tag }: CatalogueFilter): string {
  return [q && `names containing “${q}”`, tag && `the tag “${tag}”`].filter(Boolean).join(', with ');
}

const DEFAULT_SORT: PlantSortValue = '-created';

/** The catalogue's address with this filter and sort (the default sort left out), and `extra`. */
function catalogueHref(filter: CatalogueFilter, sort: PlantSortValue, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  if (filter.q) query.set('q', filter.q);
  if (filter.tag) query.set('tag', filter.tag);
  if (sort !== DEFAULT_SORT) query.set('sort', sort);
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  return `/catalogue${query.size ? `?${query}` : ''}`;
}

function filterQuery(filter: CatalogueFilter): string {
  const query = new URLSearchParams();
  if (filter.q) query.set('q', filter.q);
  if (filter.tag) query.set('tag', filter.tag);
  return query.size ? `?${query}` : '';
}

const SORT_WORDS: Record<PlantSortValue, string> = {
  '-created': 'newest first',
  created: 'oldest first',
  name: 'by name, A to Z',
  '-name': 'by name, Z to A',
  id: 'by ID, lowest first',
  '-id': 'by ID, highest first',
};

const number = new Intl.NumberFormat('en');

/** A column header that sorts: a link to the same filter in this column's order (the other way when it already is). */
function SortHeader({ label, column, sort, filter, firstWay }: { label: string; column: 'name' | 'id' | 'created'; sort: PlantSortValue; filter: CatalogueFilter; firstWay: 'ascending' | 'descending' }) {
  const current = sort.replace('-', '') === column ? (sort.startsWith('-') ? 'descending' : 'ascending') : undefined;
  const next = current ? (current === 'ascending' ? 'descending' : 'ascending') : firstWay;
  const target = `${next === 'descending' ? '-' : ''}${column}` as PlantSortValue;
  return (
    <th scope="col" aria-sort={current ?? 'none'} className={column === 'created' ? 'optional' : undefined}>
      {/* The header's name is the column's; the link says what it does (aria-sort says the current order). */}
      <Link className="sort-link" href={catalogueHref(filter, target)} aria-label={`${label}, sort ${SORT_WORDS[target]}`}>
        {label}
        {current && <span aria-hidden="true">{current === 'ascending' ? ' ▲' : ' ▼'}</span>}
      </Link>
    </th>
  );
}

export function CatalogueView(props: {
  sessionToken: SessionToken;
  rows: CatalogueRow[];
  filter: CatalogueFilter;
  sort: PlantSortValue;
  /** How many plants the filter matches, and how many come before this page. */
  total: number;
  before: number;
  olderCursor: string | null;
  newerCursor: string | null;
  /** Whether each row links to its plant's history (/audit is for admins). */
  showHistory: boolean;
}) {
  const { filter, sort, olderCursor, newerCursor, showHistory } = props;
  const [rows, setRows] = useState(props.rows);
  const [total, setTotal] = useState(props.total);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [open, setOpen] = useState<{ kind: 'edit' | 'delete'; row: CatalogueRow } | { kind: 'bulk' } | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const showError = useCallback((text: string) => setNotice({ kind: 'error', text }), []);
  const token = useBearer(props.sessionToken, catalogueHref(filter, sort), showError);

  const filtered = Boolean(filter.q || filter.tag);
  const replace = (next: CatalogueRow) => setRows((shown) => shown.map((row) => (row.id === next.id ? next : row)));
  const focusHeading = () => requestAnimationFrame(() => heading.current?.focus());
  const dropRows = (ids: ReadonlySet<string>) => {
    setRows((shown) => shown.filter((row) => !ids.has(row.id)));
    setSelected((chosen) => new Set([...chosen].filter((id) => !ids.has(id))));
    setTotal((count) => Math.max(count - ids.size, 0));
  };
  const remove = (gone: CatalogueRow, text: string) => {
    dropRows(new Set([gone.id]));
    setOpen(null);
    setNotice({ kind: 'success', text });
    // Its row, and the button that opened the dialog, are gone: the list's heading takes focus.
    focusHeading();
  };
  const bulkDone = (outcome: BulkOutcome) => {
    dropRows(new Set([...outcome.deleted, ...outcome.gone].map((row) => row.id)));
    for (const row of outcome.changed) replace(row);
    setOpen(null);
    setNotice(describeBulk(outcome));
    focusHeading();
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((chosen) => {
      const next = new Set(chosen);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const chosenRows = rows.filter((row) => selected.has(row.id));
  const newestFirst = sort === DEFAULT_SORT;

  return (
    <section className="card" aria-labelledby="results-heading">
      <div className="results-head">
        <h2 id="results-heading" ref={heading} tabIndex={-1}>
          {filtered ? 'Plants found' : 'Plants'}
        </h2>
        <DownloadCsvButton token={token} query={filterQuery(filter)} onNotice={setNotice} />
      </div>
      <p className="muted" id="results-summary">
        {rows.length > 0 && (
          <strong className="count">
            {number.format(props.before + 1)}–{number.format(props.before + rows.length)} of {number.format(total)}
          </strong>
        )}{' '}
        {filtered ? `Plants with ${describeFilter(filter)}, ${SORT_WORDS[sort]}.` : `Every plant, ${SORT_WORDS[sort]}.`} Download CSV exports all of them.
      </p>
      <Notices notice={notice} className="notice-area compact" />

      {rows.length === 0 ? (
        <p className="empty">
          {filtered ? (
            <>No plants match: none has {describeFilter(filter)}.</>
          ) : newerCursor ? (
            <>No more plants.</>
          ) : (
            <>
              No plants yet. <Link href="/">Add one</Link>, or <Link href="/import">import a CSV file</Link>.
            </>
          )}
        </p>
      ) : (
        <>
          <div className="toolbar selection-bar">
            <span aria-live="polite">{selected.size > 0 ? `${selected.size} selected` : 'Select plants to delete several at once.'}</span>
            {selected.size > 0 && (
              <>
                <button type="button" className="danger" onClick={() => (setNotice(null), setOpen({ kind: 'bulk' }))}>
                  Delete {selected.size} selected
                </button>
                <button type="button" className="secondary" onClick={() => setSelected(new Set())}>
                  Clear selection
                </button>
              </>
            )}
          </div>
          <DataTable
            labelledBy="results-heading"
            className="catalogue"
            describedBy="results-summary"
            columns={[
              <th scope="col" className="select-cell" key="select">
                <input
                  type="checkbox"
                  aria-label="Select every plant on this page"
                  checked={allSelected}
                  onChange={(event) => setSelected(event.target.checked ? new Set(rows.map((row) => row.id)) : new Set())}
                />
              </th>,
              <SortHeader key="name" label="Name" column="name" sort={sort} filter={filter} firstWay="ascending" />,
              'Tag',
              <SortHeader key="id" label="ID" column="id" sort={sort} filter={filter} firstWay="ascending" />,
              <SortHeader key="created" label="Added" column="created" sort={sort} filter={filter} firstWay="descending" />,
              { hidden: 'Actions' },
            ]}
          >
            {rows.map((row) => (
              <tr key={row.id}>
                <td className="select-cell">
                  <input type="checkbox" aria-label={`Select ${row.name}`} checked={selected.has(row.id)} onChange={(event) => toggle(row.id, event.target.checked)} />
                </td>
                <td className="name-cell">{row.name}</td>
                <td className="tag-cell">{row.tag ?? <span className="muted">none</span>}</td>
                <td className="id-cell">
                  <span className="mono id-text">{row.id}</span>
                </td>
                <TimeCell className="optional added-cell" iso={row.addedAt} />
                <td className="actions-cell">
                  <div className="row-actions">
                    <ScriptButton className="secondary" onClick={() => (setNotice(null), setOpen({ kind: 'edit', row }))}>
                      Edit<span className="visually-hidden"> {row.name}</span>
                    </ScriptButton>
                    <ScriptButton className="secondary" onClick={() => (setNotice(null), setOpen({ kind: 'delete', row }))}>
                      Delete<span className="visually-hidden"> {row.name}</span>
                    </ScriptButton>
                    {showHistory && (
                      <Link className="history-link" href={`/audit?${new URLSearchParams({ target: `plant:${row.id}` })}`}>
                        History<span className="visually-hidden"> of {row.name}</span>
                      </Link>
                    )}
                  </div>
                  <RowMenu
                    row={row}
                    historyHref={showHistory ? `/audit?${new URLSearchParams({ target: `plant:${row.id}` })}` : undefined}
                    onEdit={() => (setNotice(null), setOpen({ kind: 'edit', row }))}
                    onDelete={() => (setNotice(null), setOpen({ kind: 'delete', row }))}
                    onCopied={(text) => setNotice({ kind: 'success', text })}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}

      {(newerCursor || olderCursor) && (
        <nav aria-label="Pages" className="pager">
          {newerCursor ? <Link href={catalogueHref(filter, sort, { newer: newerCursor })}>{newestFirst ? '← Newer plants' : '← Previous page'}</Link> : <span />}
          {olderCursor && <Link href={catalogueHref(filter, sort, { cursor: olderCursor })}>{newestFirst ? 'Older plants →' : 'Next page →'}</Link>}
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
      {open?.kind === 'bulk' && <BulkDeleteDialog rows={chosenRows} token={token} onClose={() => setOpen(null)} onDone={bulkDone} />}
    </section>
  );
}

const names = (rows: CatalogueRow[]) => rows.map((row) => `“${row.name}”`).join(', ');

/** What a bulk deletion did, in one notice: deleted, already gone, changed meanwhile (kept), failed. */
function describeBulk({ deleted, gone, changed, failed }: BulkOutcome): Notice {
  const parts: string[] = [];
  if (deleted.length) parts.push(`Deleted ${deleted.length} ${deleted.length === 1 ? 'plant' : 'plants'}.`);
  if (gone.length) parts.push(`Already deleted by someone else: ${names(gone)}.`);
  if (changed.length) parts.push(`Changed by someone else since the page showed them, so not deleted: ${names(changed)}. Their rows now show what they hold; select them again to delete them.`);
  if (failed.length) parts.push(`Not deleted: ${failed.map(({ row, message }) => `“${row.name}” (${message})`).join(', ')}.`);
  return { kind: changed.length || failed.length ? 'error' : 'success', text: parts.join(' ') };
}

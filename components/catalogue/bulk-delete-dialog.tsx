'use client';
// Delete the selected plants, after one confirmation that names how many. Each DELETE carries its
// row's ETag in If-Match, one after another: a plant someone changed since the page showed it is
// kept (412) and its row shows what it holds now; one already deleted counts as gone. The page
// reports each group.
import { useState } from 'react';
import { deletePlant, getPlant } from '@/lib/api-client/plants';
import { Dialog } from '../dialog';
import { UNREACHABLE_MESSAGE } from '../use-session-token';
import { rowOf, type CatalogueRow } from './versioned-row';

export type BulkOutcome = {
  deleted: CatalogueRow[];
  /** Deleted by someone else first. */
  gone: CatalogueRow[];
  /** Changed by someone else since the page showed them: kept, as they are now. */
  changed: CatalogueRow[];
  failed: { row: CatalogueRow; message: string }[];
};

/** Deletes `row` if it is still the version shown; says which group it falls in. */
async function deleteOne(bearer: string, row: CatalogueRow, outcome: BulkOutcome): Promise<void> {
  const id = BigInt(row.id);
  const answer = await deletePlant(bearer, id, row.etag);
  if (answer.kind === 'deleted') return void outcome.deleted.push(row);
  if (answer.kind === 'unreachable') return void outcome.failed.push({ row, message: UNREACHABLE_MESSAGE });
  if (answer.status === 404) return void outcome.gone.push(row);
  if (answer.status !== 412) return void outcome.failed.push({ row, message: answer.message });
  const current = await getPlant(bearer, id);
  if (current.kind === 'ok') outcome.changed.push(rowOf(current, row.addedAt));
  else if (current.kind === 'refused' && current.status === 404) outcome.gone.push(row);
  else outcome.failed.push({ row, message: current.kind === 'refused' ? current.message : UNREACHABLE_MESSAGE });
}

export function BulkDeleteDialog({
  rows,
  token,
  onClose,
  onDone,
}: {
  rows: CatalogueRow[];
  token: () => Promise<string | null>;
  onClose: () => void;
  onDone: (outcome: BulkOutcome) => void;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const count = rows.length;
  const plants = `${count} ${count === 1 ? 'plant' : 'plants'}`;

  async function confirm() {
    setProgress(0);
    const bearer = await token();
    if (!bearer) return setProgress(null);
    const outcome: BulkOutcome = { deleted: [], gone: [], changed: [], failed: [] };
    for (const [index, row] of rows.entries()) {
      await deleteOne(bearer, row, outcome);
      setProgress(index + 1);
    }
    onDone(outcome);
  }

  return (
    <Dialog labelledBy="bulk-delete-heading" onClose={progress === null ? onClose : () => {}}>
      <h2 id="bulk-delete-heading">Delete {plants}?</h2>
      <p>These leave the catalogue for good:</p>
      <ul className="bulk-list">
        {rows.map((row) => (
          <li key={row.id}>
            {row.name} <span className="mono muted">{row.id}</span>
          </li>
        ))}
      </ul>
      <p className="muted">A plant someone else has changed since this page showed it is kept, and the page says which.</p>
      <p role="status" className="notice">
        {progress !== null ? `Deleting… ${progress} of ${count}` : ''}
      </p>
      <div className="dialog-actions">
        <button type="button" className="danger" onClick={confirm} disabled={progress !== null}>
          Delete {plants}
        </button>
        <button type="button" className="secondary" onClick={onClose} disabled={progress !== null} data-autofocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

'use client';
// Delete a plant, after asking. The DELETE carries the row's ETag in If-Match: if someone else has
// changed the plant since the page showed it, the API answers 412, and the dialog shows what the
// plant holds now and asks again (deleting that version, if confirmed).
import { useState } from 'react';
import { deletePlant, getPlant } from '@/lib/api-client/plants';
import { Dialog } from '../dialog';
import { Alert } from '../notices';
import { UNREACHABLE_MESSAGE } from '../use-session-token';
import { describeRow, rowOf, type CatalogueRow } from './versioned-row';

export function DeletePlantDialog({
  row,
  token,
  onClose,
  onDeleted,
  onCurrent,
}: {
  row: CatalogueRow;
  token: () => Promise<string | null>;
  onClose: () => void;
  /** `already` when someone else had deleted it first. */
  onDeleted: (deleted: CatalogueRow, already: boolean) => void;
  onCurrent: (current: CatalogueRow) => void;
}) {
  const [shown, setShown] = useState(row);
  const [alert, setAlert] = useState('');
  const [busy, setBusy] = useState(false);
  const id = BigInt(row.id);

  async function confirm() {
    setAlert('');
    setBusy(true);
    try {
      const bearer = await token();
      if (!bearer) return;
      const outcome = await deletePlant(bearer, id, shown.etag);
      if (outcome.kind === 'deleted') return onDeleted(shown, false);
      if (outcome.kind === 'unreachable') return setAlert(`${UNREACHABLE_MESSAGE} Nothing was deleted.`);
      if (outcome.status === 404) return onDeleted(shown, true);
      if (outcome.status !== 412) return setAlert(outcome.message);
      const current = await getPlant(bearer, id);
      if (current.kind === 'ok') {
        const now = rowOf(current, row.addedAt);
        setShown(now);
        onCurrent(now);
        setAlert(`Someone else changed this plant since the page showed it. It now reads ${describeRow(now)}. Delete it anyway?`);
      } else if (current.kind === 'refused' && current.status === 404) {
        onDeleted(shown, true);
      } else {
        setAlert(current.kind === 'refused' ? current.message : UNREACHABLE_MESSAGE);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog labelledBy="delete-heading" onClose={onClose}>
      <h2 id="delete-heading">Delete {shown.name}?</h2>
      <p>
        {describeRow(shown)}, ID <span className="mono">{shown.id}</span>, leaves the catalogue for good.
      </p>
      <Alert>{alert}</Alert>
      <div className="dialog-actions">
        <button type="button" className="danger" onClick={confirm} disabled={busy}>
          {busy ? 'Deleting…' : 'Delete'}
        </button>
        <button type="button" className="secondary" onClick={onClose} data-autofocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

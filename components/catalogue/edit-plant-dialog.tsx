'use client';
// Edit a plant's name and tag: validated in the browser by the API's own schema, then sent as a
// merge patch of the fields changed, with If-Match. If someone else changed the plant meanwhile,
// the API answers 412: the dialog says so and shows what the plant holds now; the fields edited
// keep what was typed, the others take the new values, and Save then applies the edits to the
// current version knowingly (with the ETag just read).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { fieldMessages, getPlant, patchPlant } from '@/lib/api-client/plants';
import { NAME_MAX_LENGTH, TAG_MAX_LENGTH } from '@/lib/schemas/limits';
import type { PlantEdit, PlantEditFormInput } from '@/lib/schemas/plant';
import { deferredResolver } from '../deferred-resolver';
import { Dialog } from '../dialog';
import { Alert } from '../notices';
import { TextField } from '../text-field';
import { UNREACHABLE_MESSAGE } from '../use-session-token';
import { describeRow, rowOf, type CatalogueRow } from './versioned-row';

const FIELDS = ['name', 'tag'] as const;
const validation = deferredResolver(() => import('../form-resolvers').then((loaded) => loaded.plantEditResolver));

export function EditPlantDialog({
  row,
  token,
  onClose,
  onSaved,
  onCurrent,
  onGone,
}: {
  row: CatalogueRow;
  token: () => Promise<string | null>;
  onClose: () => void;
  onSaved: (saved: CatalogueRow) => void;
  /** Someone else changed it: this is the plant as it is now. */
  onCurrent: (current: CatalogueRow) => void;
  onGone: (gone: CatalogueRow) => void;
}) {
  // The version being edited: the row as shown, or the plant as someone else left it.
  const [base, setBase] = useState(row);
  const [alert, setAlert] = useState('');
  const [gone, setGone] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PlantEditFormInput, unknown, PlantEdit>({
    resolver: validation.resolver,
    defaultValues: { name: row.name, tag: row.tag ?? '' },
  });
  const id = BigInt(row.id);
  const close = () => (gone ? onGone(row) : onClose());

  async function changedBySomeoneElse(bearer: string) {
    const current = await getPlant(bearer, id);
    if (current.kind === 'ok') {
      const now = rowOf(current, row.addedAt);
      setBase(now);
      reset({ name: now.name, tag: now.tag ?? '' }, { keepDirtyValues: true });
      onCurrent(now);
      setAlert(
        `Someone else changed this plant while you were editing. It now reads ${describeRow(now)}. ` +
          'Save to apply your changes to it, or Cancel to keep it as it is.',
      );
    } else if (current.kind === 'refused' && current.status === 404) {
      setGone(true);
      setAlert('Someone else deleted this plant while you were editing.');
    } else {
      setAlert(current.kind === 'refused' ? current.message : UNREACHABLE_MESSAGE);
    }
  }

  async function save(values: PlantEdit) {
    setAlert('');
    const bearer = await token();
    if (!bearer) return;
    const tag = values.tag ?? null;
    const changes = { ...(values.name !== base.name && { name: values.name }), ...(tag !== (base.tag ?? null) && { tag }) };
    const outcome = await patchPlant(bearer, id, base.etag, changes);
    if (outcome.kind === 'ok') return onSaved(rowOf(outcome, row.addedAt));
    if (outcome.kind === 'unreachable') return setAlert(`${UNREACHABLE_MESSAGE} Nothing was saved.`);
    if (outcome.status === 412) return changedBySomeoneElse(bearer);
    if (outcome.status === 404) {
      setGone(true);
      return setAlert('Someone else deleted this plant while you were editing.');
    }
    const byField = fieldMessages(outcome.message, FIELDS);
    for (const field of FIELDS) if (byField[field]) setError(field, { type: 'server', message: byField[field] });
    setAlert(outcome.message);
  }

  return (
    <Dialog labelledBy="edit-heading" onClose={close}>
      {/* The name field takes the focus as the dialog opens, which starts loading the validation. */}
      <form
        onSubmit={handleSubmit(save, (invalid) => invalid.root?.message && setAlert(`${invalid.root.message} Nothing was saved.`))}
        onFocus={validation.preload}
        noValidate
      >
        <h2 id="edit-heading">Edit {row.name}</h2>
        <p className="muted">
          ID <span className="mono">{row.id}</span>
        </p>
        <TextField label="Name" error={errors.name?.message} registration={register('name')} maxLength={NAME_MAX_LENGTH * 2} data-autofocus />
        <TextField
          label="Tag"
          hint="Leave it empty for no tag."
          error={errors.tag?.message}
          registration={register('tag')}
          maxLength={TAG_MAX_LENGTH * 2}
        />
        <Alert>{alert}</Alert>
        <div className="dialog-actions">
          <button type="submit" disabled={isSubmitting || gone}>
            {isSubmitting ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className="secondary" onClick={close}>
            {gone ? 'Close' : 'Cancel'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

'use client';
// The staff form: the same zod schema as the API checks the input in the browser, then the page
// calls POST /plants with a short-lived bearer token, exactly as any other client would.
import { useCallback, useEffect, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { fieldMessages, nextFreeId, postPlant } from '@/lib/api-client/plants';
import { NAME_MAX_LENGTH, TAG_MAX_LENGTH } from '@/lib/schemas/limits';
import type { NewPlant, NewPlantFormInput } from '@/lib/schemas/plant';
import { deferredResolver } from './deferred-resolver';
import { Notices, type Notice } from './notices';
import { RecentPlants, type RecentPlant } from './recent-plants';
import { TextField } from './text-field';
import { UNREACHABLE_MESSAGE, useBearer, type SessionToken } from './use-session-token';
import { SubmitActions } from './submit-actions';
import { ScriptButton } from './script-button';

const FIELDS = ['id', 'name', 'tag'] as const;
const UNREACHABLE_TEXT = 'Could not reach the server. Nothing was lost: check your connection and press Add plant again.';
const validation = deferredResolver(() => import('./form-resolvers').then((loaded) => loaded.newPlantResolver));

export function AddPlantForm({ sessionToken, recent }: { sessionToken: SessionToken; recent: RecentPlant[] }) {
  const [plants, setPlants] = useState(recent);
  const [notice, setNotice] = useState<Notice>(null);
  const showError = useCallback((text: string) => setNotice({ kind: 'error', text }), []);
  const token = useBearer(sessionToken, '/', showError);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<NewPlantFormInput, unknown, NewPlant>({
    resolver: validation.resolver,
    defaultValues: { id: '', name: '', tag: '' },
  });

  // Ready for the next plant: back to the first field once the form has re-rendered empty.
  useEffect(() => {
    if (notice?.kind === 'success') setFocus('id');
  }, [notice, setFocus]);

  // Asked for at the moment it is wanted: one offered when the page loaded may be taken by now.
  async function fillNextFreeId() {
    setNotice(null);
    const bearer = await token();
    if (!bearer) return;
    const outcome = await nextFreeId(bearer);
    if (outcome.kind === 'ok') {
      setValue('id', outcome.id.toString(), { shouldValidate: true });
      // The id is done; the name is what comes next.
      setFocus('name');
    } else {
      setNotice({ kind: 'error', text: outcome.kind === 'refused' ? outcome.message : UNREACHABLE_MESSAGE });
    }
  }

  // Submitted when the form's validation could not be loaded (offline): said as a failed request is.
  function showRootError(invalid: FieldErrors<NewPlantFormInput>) {
    if (invalid.root) showError(UNREACHABLE_TEXT);
  }

  async function submit(plant: NewPlant) {
    setNotice(null);
    const bearer = await token();
    if (!bearer) return;
    const outcome = await postPlant(bearer, plant);
    switch (outcome.kind) {
      case 'created': {
        const stored = outcome.plant;
        setPlants((shown) => [
          { id: stored.id.toString(), name: stored.name, tag: stored.tag, addedAt: new Date().toISOString() },
          ...shown.filter((item) => item.id !== stored.id.toString()),
        ]);
        setNotice({ kind: 'success', text: `Added “${stored.name}” (ID ${stored.id}).` });
        reset();
        return;
      }
      case 'unreachable':
        setNotice({ kind: 'error', text: UNREACHABLE_TEXT });
        return;
      case 'refused': {
        const byField = fieldMessages(outcome.message, FIELDS);
        for (const field of FIELDS) {
          if (byField[field]) setError(field, { type: 'server', message: byField[field] });
        }
        setNotice({ kind: 'error', text: outcome.message });
        const first = FIELDS.find((field) => byField[field]);
        if (first) setFocus(first);
      }
    }
  }

  return (
    <>
      <section aria-labelledby="add-heading" className="card">
        <h1 id="add-heading">Add a plant</h1>
        <form onSubmit={handleSubmit(submit, showRootError)} onFocus={validation.preload} onPointerDown={validation.preload} noValidate>
          <TextField
            label="ID"
            hint="A whole number, up to 9223372036854775807, or the next free one."
            error={errors.id?.message}
            registration={register('id')}
            inputMode="numeric"
            spellCheck={false}
            action={
              <ScriptButton className="secondary" onClick={fillNextFreeId}>
                Use next free ID
              </ScriptButton>
            }
          />
          <TextField
            label="Name"
            error={errors.name?.message}
            registration={register('name')}
            maxLength={NAME_MAX_LENGTH * 2}
          />
          <TextField
            label="Tag"
            hint="Optional, such as “aroid” or “succulent”."
            error={errors.tag?.message}
            registration={register('tag')}
            maxLength={TAG_MAX_LENGTH * 2}
          />
          <SubmitActions busy={isSubmitting} label="Add plant" busyLabel="Adding…" />
          <Notices notice={notice} />
        </form>
      </section>
      <RecentPlants plants={plants} />
    </>
  );
}

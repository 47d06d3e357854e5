'use client';
// The staff form: the same zod schema as the API checks the input in the browser, then the page
// calls POST /plants with a short-lived bearer token, exactly as any other client would.
import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { fieldMessages, postPlant } from '@/lib/api-client/plants';
import { NAME_MAX_LENGTH, NewPlantForm, TAG_MAX_LENGTH, type NewPlant, type NewPlantFormInput } from '@/lib/schemas/plant';
import { RecentPlants, type RecentPlant } from './recent-plants';
import { TextField } from './text-field';
import { SignedOutError, useSessionToken, type SessionToken } from './use-session-token';

const FIELDS = ['id', 'name', 'tag'] as const;
type Notice = { kind: 'success' | 'error'; text: string } | null;

export function AddPlantForm({ sessionToken, recent }: { sessionToken: SessionToken; recent: RecentPlant[] }) {
  const router = useRouter();
  const tokenForRequest = useSessionToken(sessionToken);
  const [plants, setPlants] = useState(recent);
  const [notice, setNotice] = useState<Notice>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<NewPlantFormInput, unknown, NewPlant>({
    resolver: zodResolver(NewPlantForm),
    defaultValues: { id: '', name: '', tag: '' },
  });

  // Ready for the next plant: back to the first field once the form has re-rendered empty.
  useEffect(() => {
    if (notice?.kind === 'success') setFocus('id');
  }, [notice, setFocus]);

  async function submit(plant: NewPlant) {
    setNotice(null);
    let token: string;
    try {
      token = await tokenForRequest();
    } catch (error) {
      if (error instanceof SignedOutError) {
        router.push(`/login?callbackUrl=${encodeURIComponent('/')}`);
        return;
      }
      setNotice({ kind: 'error', text: 'Could not reach the server. Check your connection and try again.' });
      return;
    }
    const outcome = await postPlant(token, plant);
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
        setNotice({
          kind: 'error',
          text: 'Could not reach the server. Nothing was lost: check your connection and press Add plant again.',
        });
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
        <form onSubmit={handleSubmit(submit)} noValidate>
          <TextField
            label="ID"
            hint="A whole number, up to 9223372036854775807."
            error={errors.id?.message}
            registration={register('id')}
            inputMode="numeric"
            spellCheck={false}
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
          <div className="actions">
            <button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Adding…' : 'Add plant'}
            </button>
          </div>
          {/* Both regions are always present, so the page does not move when a message appears. */}
          <div className="notice-area">
            <p role="status" className={notice?.kind === 'success' ? 'notice success' : 'notice'}>
              {notice?.kind === 'success' ? notice.text : ''}
            </p>
            <p role="alert" className={notice?.kind === 'error' ? 'notice error' : 'notice'}>
              {notice?.kind === 'error' ? notice.text : ''}
            </p>
          </div>
        </form>
      </section>
      <RecentPlants plants={plants} />
    </>
  );
}

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

  const describedBy = (field: (typeof FIELDS)[number], hint?: string) =>
    [hint, errors[field] ? `${field}-error` : undefined].filter(Boolean).join(' ') || undefined;

  // Error lines are always rendered (empty when fine), so a message appearing moves nothing.
  return (
    <>
      <section aria-labelledby="add-heading" className="card">
        <h1 id="add-heading">Add a plant</h1>
        <form onSubmit={handleSubmit(submit)} noValidate>
          <div className="field">
            <label htmlFor="id">ID</label>
            <input
              id="id"
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={errors.id ? true : undefined}
              aria-describedby={describedBy('id', 'id-hint')}
              {...register('id')}
            />
            <p id="id-hint" className="hint">
              A whole number, up to 9223372036854775807.
            </p>
            <p id="id-error" className="field-error">
              {errors.id?.message}
            </p>
          </div>
          <div className="field">
            <label htmlFor="name">Name</label>
            <input
              id="name"
              autoComplete="off"
              maxLength={NAME_MAX_LENGTH * 2}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={describedBy('name')}
              {...register('name')}
            />
            <p id="name-error" className="field-error">
              {errors.name?.message}
            </p>
          </div>
          <div className="field">
            <label htmlFor="tag">Tag</label>
            <input
              id="tag"
              autoComplete="off"
              maxLength={TAG_MAX_LENGTH * 2}
              aria-invalid={errors.tag ? true : undefined}
              aria-describedby={describedBy('tag', 'tag-hint')}
              {...register('tag')}
            />
            <p id="tag-hint" className="hint">
              Optional, such as “aroid” or “succulent”.
            </p>
            <p id="tag-error" className="field-error">
              {errors.tag?.message}
            </p>
          </div>
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

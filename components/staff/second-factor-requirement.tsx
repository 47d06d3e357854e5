'use client';
// The staff page's card of the second-factor rule: whom the store asks to sign in with a code too.
import { useActionState } from 'react';
import { REQUIREMENT_LABELS, REQUIREMENTS, type SecondFactorRequirement } from '@/lib/auth/second-factor/requirement';
import { Notices } from '../notices';
import { SubmitActions } from '../submit-actions';

export type RequirementState = { kind: 'idle' } | { kind: 'saved'; required: SecondFactorRequirement } | { kind: 'error'; message: string };

export function SecondFactorRequirementCard({
  required,
  setSecondFactorRequirementAction,
}: {
  required: SecondFactorRequirement;
  setSecondFactorRequirementAction: (state: RequirementState, form: FormData) => Promise<RequirementState>;
}) {
  const [state, save, saving] = useActionState<RequirementState, FormData>(setSecondFactorRequirementAction, { kind: 'idle' });
  const current = state.kind === 'saved' ? state.required : required;
  return (
    <section className="card" aria-labelledby="second-factor-rule-heading">
      <h2 id="second-factor-rule-heading">Second factor</h2>
      <p className="muted">
        Whom the store asks to sign in with a code from an authenticator app as well as a password. Someone it asks who has
        none yet is sent to set one up right after their password, before any other page.
      </p>
      <form action={save}>
        <fieldset>
          <legend>Require a second factor of</legend>
          {REQUIREMENTS.map((choice) => (
            <div className="choice" key={choice}>
              <input type="radio" id={`require-${choice}`} name="required" value={choice} defaultChecked={choice === current} />
              <label htmlFor={`require-${choice}`}>{REQUIREMENT_LABELS[choice]}</label>
            </div>
          ))}
        </fieldset>
        <SubmitActions busy={saving} label="Save" busyLabel="Saving…" />
        <Notices
          notice={
            state.kind === 'saved'
              ? { kind: 'success', text: state.required === 'off' ? 'Saved: nobody is required to have a second factor.' : `Saved: a second factor is required of ${state.required}.` }
              : state.kind === 'error'
                ? { kind: 'error', text: state.message }
                : null
          }
        />
      </form>
    </section>
  );
}

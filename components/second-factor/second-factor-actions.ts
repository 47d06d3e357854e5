// What the account and enrolment pages hand the second factor's components: the server actions
// (app/(staff)/account/second-factor-actions.ts defines them), and what each answers.

export type EnrolmentStart = { ok: true; secret: string; uri: string; qrCode: string } | { ok: false; message: string };

export type ConfirmState = { kind: 'idle' } | { kind: 'confirmed'; recoveryCodes: string[] } | { kind: 'error'; message: string };

export type RemoveState = { kind: 'idle' } | { kind: 'removed' } | { kind: 'error'; message: string };

export type SecondFactorActions = {
  startEnrolmentAction: () => Promise<EnrolmentStart>;
  confirmEnrolmentAction: (state: ConfirmState, form: FormData) => Promise<ConfirmState>;
  removeSecondFactorAction: (state: RemoveState, form: FormData) => Promise<RemoveState>;
};

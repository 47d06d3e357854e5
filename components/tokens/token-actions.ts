// What the tokens page hands its manager: the page's server actions (app/(staff)/tokens/actions.ts
// defines them), and what each answers. The page passes them in, so no component imports app/.
import type { ActionOutcome } from '../confirm-action';

export type CreateTokenState =
  | { kind: 'idle' }
  | { kind: 'created'; name: string; token: string }
  | { kind: 'error'; message: string };

export type TokenActions = {
  createTokenAction: (state: CreateTokenState, form: FormData) => Promise<CreateTokenState>;
  /** Staff revoke their own tokens; admins anyone's. */
  revokeTokenAction: (id: string) => Promise<ActionOutcome>;
};

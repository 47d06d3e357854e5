// What the staff page hands its manager: the page's server actions (app/(staff)/staff/actions.ts
// defines them), and what each answers. The page passes them in, so no component imports app/.
import type { Role } from '@/lib/auth/scopes';
import type { ActionOutcome } from '../confirm-action';

export type AddStaffState =
  | { kind: 'idle' }
  | { kind: 'created'; email: string; linkPath: string }
  /** Email is set up: the link went to the member's address, and the page never sees it. */
  | { kind: 'invited'; email: string }
  | { kind: 'error'; message: string };

/** A change to an account, with the new set-password link's path when it made one, or whether it was emailed to the account instead. */
export type StaffActionOutcome = ActionOutcome & { linkPath?: string; emailed?: boolean };

export type StaffActions = {
  addStaffMemberAction: (state: AddStaffState, form: FormData) => Promise<AddStaffState>;
  disableAccountAction: (id: string) => Promise<StaffActionOutcome>;
  enableAccountAction: (id: string) => Promise<StaffActionOutcome>;
  setRoleAction: (id: string, role: Role) => Promise<StaffActionOutcome>;
  resetPasswordAction: (id: string) => Promise<StaffActionOutcome>;
  resetSecondFactorAction: (id: string) => Promise<StaffActionOutcome>;
};

/** Turns password sign-in for admins only on (true) or off. */
export type SignInPolicyAction = (adminsOnly: boolean) => Promise<StaffActionOutcome>;

// What the staff page hands its manager: the page's server actions (app/(staff)/staff/actions.ts
// defines them), and what each answers. The page passes them in, so no component imports app/.
import type { Role } from '@/lib/auth/scopes';
import type { ActionOutcome } from '../confirm-action';

export type AddStaffState =
  | { kind: 'idle' }
  | { kind: 'created'; email: string; linkPath: string }
  | { kind: 'error'; message: string };

/** A change to an account, with the new set-password link's path when it made one. */
export type StaffActionOutcome = ActionOutcome & { linkPath?: string };

export type StaffActions = {
  addStaffMemberAction: (state: AddStaffState, form: FormData) => Promise<AddStaffState>;
  disableAccountAction: (id: string) => Promise<StaffActionOutcome>;
  enableAccountAction: (id: string) => Promise<StaffActionOutcome>;
  setRoleAction: (id: string, role: Role) => Promise<StaffActionOutcome>;
  resetPasswordAction: (id: string) => Promise<StaffActionOutcome>;
};

/** Turns password sign-in for admins only on (true) or off. */
export type SignInPolicyAction = (adminsOnly: boolean) => Promise<StaffActionOutcome>;

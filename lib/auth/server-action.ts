// Server actions are public endpoints: anyone may POST an action's id to a page, with any
// arguments React can encode, whatever that page's own forms and buttons send. So every action is
// defined through serverAction(), which checks the caller, then the arguments, before the action's
// code runs, and answers each refusal in the action's own result type: a request that should be
// refused never reaches code that assumes a signed-in caller or a FormData, and never faults.
import 'server-only';
import { z } from 'zod';
import { staffContext, type ChangeContext } from '../audit/context';
import { incomingRequest } from '../audit/incoming-request';
import { ApiError } from '../errors';
import { describeIssues } from '../shared/validation';
import { log } from '../log';
import { AccountError } from './accounts/changes';
import { TokenScopeError } from './tokens/api-tokens';
import { PasswordLinkError } from './passwords/links';
import { PasswordRuleError } from './passwords/policy';
import type { Role } from './scopes';
import { currentStaff, enrollingStaff, type Staff } from './sessions/current-staff';
import { DuplicateEmailError } from './accounts/directory';

export const SIGNED_OUT = 'Your sign-in has ended. Sign in again, then retry.';
export const ADMINS_ONLY = 'Only admins may do that.';
export const NOT_UNDERSTOOD = 'The request was not understood.';

/** Who may call an action: a signed-in role, or anyone (when an argument is the credential). */
export type ActionRole = Role | 'anyone';

type RequestFacts = Awaited<ReturnType<typeof incomingRequest>>;

/** What an action is told of its caller: the signed-in staff member and the audit context of their change. */
export type ActionCaller<R extends ActionRole> = R extends 'anyone' ? { request: RequestFacts } : { staff: Staff; context: ChangeContext };

export type ServerActionDefinition<R extends ActionRole, Args extends z.ZodType<unknown[], unknown[]>, Result> = {
  /** The action's name in the log: its export, without "Action". */
  name: string;
  role: R;
  /** The whole argument list, as the page passes it: a z.tuple. */
  args: Args;
  /** The action's refusal in its own result type; `error` is the refusal `run` threw, when it was one. */
  refuse: (message: string, error?: Error) => Result;
  /** The enrolment of a second factor's own actions: a signed-in account the store asks for one may call them before it has one. */
  beforeSecondFactor?: true;
  run: (args: z.output<Args>, caller: ActionCaller<R>) => Promise<Result>;
};

/**
 * A server action: checks the session and role (refusals logged with the action's name), then
 * the arguments; runs `run`; and answers a refusal `run` throws (see refusalOf) through `refuse`.
 * Anything else thrown is a fault: logged, and thrown on for Next to answer.
 */
export function serverAction<const R extends ActionRole, Args extends z.ZodType<unknown[], unknown[]>, Result>(
  definition: ServerActionDefinition<R, Args, Result>,
): (...args: z.input<Args>) => Promise<Result> {
  const { name, role, args: schema, refuse, run, beforeSecondFactor } = definition;
  return async (...args) => {
    const caller = await callerOf(name, role, beforeSecondFactor === true);
    if (typeof caller === 'string') return refuse(caller);
    const parsed = schema.safeParse(args, { error: notUnderstoodAtAnArgument });
    if (!parsed.success) {
      const message = messageOf(parsed.error.issues);
      if (message === NOT_UNDERSTOOD) log.warn('server action refused: arguments not understood', { action: name, userId: 'staff' in caller ? caller.staff.id : undefined });
      return refuse(message);
    }
    try {
      return await run(parsed.data, caller as ActionCaller<R>);
    } catch (error) {
      const message = refusalOf(error);
      if (message !== undefined) return refuse(message, error as Error);
      log.error('server action failed', {
        action: name,
        requestId: 'context' in caller ? caller.context.requestId : caller.request.requestId,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      throw error;
    }
  };
}

/** The caller, or the refusal to answer them with (logged). Anyone's calls need no session. */
async function callerOf(action: string, role: ActionRole, beforeSecondFactor: boolean): Promise<ActionCaller<ActionRole> | string> {
  if (role === 'anyone') return { request: await incomingRequest() };
  const staff = beforeSecondFactor ? ((await enrollingStaff())?.staff ?? null) : await currentStaff();
  if (!staff) {
    log.warn('server action refused: not signed in', { action });
    return SIGNED_OUT;
  }
  if (role === 'admin' && staff.role !== 'admin') {
    log.warn('server action refused: admins only', { action, userId: staff.id, role: staff.role });
    return ADMINS_ONLY;
  }
  return { staff, context: staffContext(staff, await incomingRequest()) };
}

/**
 * For an issue at an argument itself (or the list's length) that its schema gives no message of
 * its own: the wrong kind of value, which no page sends. Issues inside a form's fields, and
 * arguments whose schema has its own message, keep theirs. (Zod gives a root issue no path here.)
 */
function notUnderstoodAtAnArgument(issue: { path?: PropertyKey[] }): string | undefined {
  return (issue.path ?? []).length <= 1 ? NOT_UNDERSTOOD : undefined;
}

/** NOT_UNDERSTOOD, or each broken rule named by its field ("name: must not be empty"), without the argument's position. */
function messageOf(issues: readonly z.core.$ZodIssue[]): string {
  if (issues.some((issue) => issue.message === NOT_UNDERSTOOD)) return NOT_UNDERSTOOD;
  return describeIssues(issues.map((issue) => ({ ...issue, path: issue.path.slice(1) })));
}

/** The message a person is shown for a refusal thrown below an action; undefined for a fault. */
function refusalOf(error: unknown): string | undefined {
  if (error instanceof PasswordRuleError) return `New password: ${error.rule}`;
  if (error instanceof DuplicateEmailError) return `email: ${error.message}`;
  // Scopes beyond the account's role (the service checks them against the role as stored).
  if (error instanceof TokenScopeError) return `scopes: ${error.message}`;
  if (error instanceof ApiError || error instanceof AccountError || error instanceof PasswordLinkError) return error.message;
  return undefined;
}

/**
 * The arguments of a form's action under useActionState: the previous state (not used), then the
 * FormData, whose fields `read` takes out as the form sends them and `fields` holds to the form's
 * rules. Anything but a FormData is not understood.
 */
export function formArguments<Fields extends z.ZodType>(read: (form: FormData) => Record<string, unknown>, fields: Fields) {
  return z.tuple([z.unknown(), z.instanceof(FormData, { error: NOT_UNDERSTOOD }).pipe(z.preprocess(read, fields))]);
}

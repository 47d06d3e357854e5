// The audit trail's API shapes: the query of `GET /audit-events` and the records it answers with.
import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../audit/actions';
import { pageQuery } from './list';

/**
 * Query parameters of `GET /audit-events`: the page, as for plants, and the trail's own filters
 * (not the plants' `q` and `tag`). Parameters it does not name are ignored, as on `GET /plants`.
 */
export const ListAuditEventsQuery = pageQuery('records').extend({
  action: z
    .enum(AUDIT_ACTIONS, { error: `must be one of ${AUDIT_ACTIONS.join(', ')}` })
    .optional()
    .meta({ description: 'Only records of this action.' }),
  actor: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(254, { error: 'must be at most 254 characters' })
    .optional()
    .meta({ description: 'Only records by this actor: a token id (`tok_...`), a staff id (`usr_...`) or email, or `system`.' }),
  target: z
    .string()
    .regex(new RegExp(`^(${AUDIT_TARGET_TYPES.join('|')}):[^\\s]{1,64}$`), {
      error: `must be a target as the records name it, such as plant:4711 or token:tok_... (${AUDIT_TARGET_TYPES.join(', ')})`,
    })
    .optional()
    .meta({ description: 'Only records about this target, written `type:id`: `plant:4711` is that plant\'s history.' }),
});
export type ListAuditEventsQuery = z.infer<typeof ListAuditEventsQuery>;

const Fields = z.record(z.string(), z.unknown()).meta({ description: 'The fields as they were (before) or became (after); plants as the API writes them.' });

export const AuditEvent = z
  .object({
    id: z.number().int().meta({ description: 'The record\'s place in the trail: higher is newer.', example: 1042 }),
    time: z.string().meta({ format: 'date-time', description: 'When the change was made (UTC).' }),
    action: z.enum(AUDIT_ACTIONS),
    actor: z
      .object({
        type: z.enum(['token', 'staff', 'system']),
        id: z.string().optional().meta({ description: 'The token\'s or the staff member\'s id.' }),
        name: z.string().meta({
          description: 'The token\'s name, the staff member\'s email, `cli` for operator commands, or `sign-in` for the summary of a minute\'s failed sign-ins from one address.',
        }),
      })
      .meta({ description: 'Who made the change.' }),
    target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), id: z.string() }).meta({ description: 'What the change was made to.' }),
    requestId: z.string().optional().meta({ description: 'The x-request-id of the API request that made it.' }),
    clientAddress: z.string().optional().meta({ description: 'The address the request came from.' }),
    before: Fields.optional(),
    after: Fields.optional(),
  })
  .meta({ id: 'AuditEvent', description: 'One change in the audit trail. Records are never updated.' });

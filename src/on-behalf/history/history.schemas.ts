import { Type, type Static } from 'typebox'
import { DateTime, Id } from '../../http/schemas.js'

/** docs/api/on-behalf.md › A request's history: what a request's history entry says was done. */
export const HISTORY_ACTIONS = ['created', 'approved', 'rejected', 'offer_made', 'offer_withdrawn', 'offer_rejected',
  'accepted', 'confirmed', 'reminded', 'cancelled', 'completed', 'alert_round', 'edited',
  // docs/api/visit-checks.md.
  'checked_in', 'checked_out', 'visit_not_started', 'visit_overdue'] as const
export const HistoryActionSchema = Type.Unsafe<typeof HISTORY_ACTIONS[number]>({ type: 'string', enum: [...HISTORY_ACTIONS] })
const ROLES = ['requester', 'carer', 'coordinator', 'volunteer', 'moderator', 'admin'] as const

const PersonActor = Type.Object({
  id: Id,
  name: Type.String({ description: '"first_name last_name" now ("Former user" once the account is erased)' }),
  role: Type.Unsafe<typeof ROLES[number]>({ type: 'string', enum: [...ROLES], description: 'the capacity in which they did it' }),
}, { additionalProperties: false })
const ServiceActor = Type.Object({ role: Type.Literal('service') }, { additionalProperties: false, description: 'what the service did by itself' })

export const HistoryEntry = Type.Object({
  at: DateTime,
  action: HistoryActionSchema,
  actor: Type.Union([PersonActor, ServiceActor]),
  on_behalf_of: Type.Union([
    Type.Object({ client_id: Id }, { additionalProperties: false }),
    Type.Object({ user_id: Id }, { additionalProperties: false }),
    Type.Null(),
  ], { description: 'the client a coordinator, or the person a carer, acted for; null otherwise' }),
  details: Type.Record(Type.String(), Type.Unknown(), {
    description: 'per action (docs/api/on-behalf.md › A request\'s history): `response_id` of offers; `reason` of a cancellation; `rated` of a completion; ' +
      '`round` and `alerted` (a count, never who) of an alert round; `people` of a reminder; `series_id` of an occurrence created by the service; ' +
      '`by` of a check-out (`volunteer`, `requester` or `completion`, docs/api/visit-checks.md)',
  }),
}, { additionalProperties: false })
export type HistoryEntry = Static<typeof HistoryEntry>

import { Type, type Static } from 'typebox'
import { FallbackText, PaginationQuery } from '../../http/pagination.js'
import { DateTime, Id, NullableDateTime, NullableId, NullableString } from '../../http/schemas.js'

/** docs/api/help.md › Concerns. */
export const CONCERN_OUTCOMES = ['no_action', 'warned', 'blocked', 'referred'] as const
export type ConcernOutcome = typeof CONCERN_OUTCOMES[number]
export const CONCERN_STATUSES = ['open', 'resolved'] as const
export type ConcernStatus = typeof CONCERN_STATUSES[number]
/** `report`: raised by a person; `visit_overdue`: by the service, for a visit not checked out (docs/api/visit-checks.md). */
export const CONCERN_KINDS = ['report', 'visit_overdue'] as const
export type ConcernKind = typeof CONCERN_KINDS[number]

const Outcome = Type.Unsafe<ConcernOutcome>({ type: 'string', enum: [...CONCERN_OUTCOMES] })
const NullableOutcome = Type.Unsafe<ConcernOutcome | null>({ type: ['string', 'null'], enum: [...CONCERN_OUTCOMES, null] })

/** What the reporter sees of their own concern: every field but the moderators' `outcome_note`. */
export const OwnConcern = Type.Object({
  id: Type.Integer(),
  reporter_id: Type.Unsafe<number | null>({ type: ['integer', 'null'], description: 'who raised it; null for the service\'s own (`kind` `visit_overdue`)' }),
  kind: Type.Unsafe<ConcernKind>({ type: 'string', enum: [...CONCERN_KINDS], description: '`report` for every concern a person raises; `visit_overdue` for the service\'s, about a visit not checked out (docs/api/visit-checks.md)' }),
  subject_user_id: NullableId,
  request_id: NullableId,
  text: Type.String(),
  urgent: Type.Boolean(),
  status: Type.Unsafe<ConcernStatus>({ type: 'string', enum: [...CONCERN_STATUSES] }),
  outcome: NullableOutcome,
  created_at: DateTime,
  resolved_at: NullableDateTime,
  resolved_by: NullableId,
})
export type OwnConcern = Static<typeof OwnConcern>

/**
 * A concern as moderators and admins see it: with `outcome_note`, and (beyond docs/privacy.md) the names of the
 * reporter and the subject ("Former user" once erased) and the request's title, so the queue reads alone.
 */
export const Concern = Type.Object({
  ...OwnConcern.properties,
  outcome_note: NullableString(),
  reporter_name: NullableString({ description: '"first_name last_name" of the reporter; "Former user" once their account is erased; null for the service\'s own' }),
  subject_name: NullableString({ description: 'the same for the subject; null when the concern names no person' }),
  request_title: NullableString({ description: 'the title of the request it is about; null when it names none' }),
})
export type Concern = Static<typeof Concern>

export const TEXT_LENGTH = 'text must be 10 to 2000 characters'
export const TEXT_MIN = 10
export const TEXT_MAX = 2000

export const RaiseConcernInput = Type.Object({
  subject_user_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the person the concern is about' })),
  request_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the request it is about; at least one of the two ids' })),
  text: Type.String({ minLength: TEXT_MIN, maxLength: TEXT_MAX, description: '10 to 2000 characters, not counting white space around it' }),
  urgent: Type.Optional(Type.Boolean({ default: false, description: 'someone may be in danger now' })),
})
export type RaiseConcernInput = Static<typeof RaiseConcernInput>
export const RAISE_MESSAGES = { text: TEXT_LENGTH }

export const NOTE_REQUIRED = 'note is required'
export const ResolveConcernInput = Type.Object({
  outcome: Outcome,
  note: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', description: 'why, for the other moderators: not blank, at most 2000 characters' }),
})
export type ResolveConcernInput = Static<typeof ResolveConcernInput>
export const RESOLVE_MESSAGES = {
  outcome: 'invalid outcome',
  'note:required': NOTE_REQUIRED,
  'note:type': NOTE_REQUIRED,
  'note:minLength': NOTE_REQUIRED,
  'note:pattern': NOTE_REQUIRED,
}

/** Declared as text, like 1.0.1's limit/offset: a bad status means the default, never a 400. */
export const QueueQuery = Type.Object({
  status: FallbackText('`open` (default) or `resolved`; anything else means open'),
  ...PaginationQuery,
})
export type QueueQuery = Static<typeof QueueQuery>

export const ConcernIdParams = Type.Object({ id: Id })
export const CONCERN_ID_MESSAGES = { id: 'invalid concern id' }

/** The queue's status filter from its query text: `resolved`, else `open`. */
export function queueStatus (raw: string | string[] | undefined): ConcernStatus {
  return typeof raw === 'string' && raw.trim() === 'resolved' ? 'resolved' : 'open'
}

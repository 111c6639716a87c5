import { Type, type Static } from 'typebox'
import { DateTime, Id, NullableDateTime, NullableString } from '../../http/schemas.js'
import { CHECK_KINDS, type CheckKind as CheckKindValue } from '../../lib/checks.js'

export type CheckKind = CheckKindValue
export const CheckKind = Type.Unsafe<CheckKind>({ type: 'string', enum: [...CHECK_KINDS] })

/** The kinds of a user's valid checks, each once, in the order identity, background, training, reference. */
export const CheckKinds = Type.Array(CheckKind, { description: 'kinds of the user\'s valid checks, in the order identity, background, training, reference, driving' })

const DATE = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date', description: 'the last day (YYYY-MM-DD, in TIME_ZONE) on which the check is valid; null: it does not expire' })

/** docs/api/accounts.md › Checks that vet volunteers: a record that an organisation verified something about a person. */
export const Check = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  kind: CheckKind,
  note: NullableString(),
  valid_until: DATE,
  verified_by: Type.Unsafe<number | null>({ type: ['integer', 'null'], description: 'the moderator or admin who recorded it; null only for identity checks carried over from the old is_verified flag' }),
  verified_by_name: NullableString({ description: 'the first and last name of `verified_by`; null when there is none (carried over, or the account is gone)' }),
  verified_at: DateTime,
  revoked_at: NullableDateTime,
})
export type Check = Static<typeof Check>

/** Kind and date are checked by the service, so a wrong one gets the spec's text rather than a schema message. */
export const NewCheckInput = Type.Object({
  kind: Type.String({ description: `one of ${CHECK_KINDS.join(', ')}` }),
  note: Type.Optional(NullableString({ maxLength: 500 })),
  valid_until: Type.Optional(NullableString({ description: 'YYYY-MM-DD, today or later (in TIME_ZONE); null or absent: does not expire' })),
})
export type NewCheckInput = Static<typeof NewCheckInput>

export const NEW_CHECK_MESSAGES = {
  id: 'invalid user id',
  kind: 'invalid kind',
  'kind:required': 'invalid kind',
  note: 'note must be at most 500 characters',
  valid_until: 'invalid valid_until',
}

export const CheckParams = Type.Object({ id: Id, check_id: Id })
export const CHECK_PARAM_MESSAGES = { id: 'invalid user id', check_id: 'invalid check id' }

import { Type, type Static } from 'typebox'
import { NullableDateTime } from '../../http/schemas.js'

/** docs/api/visit-checks.md: a visit's state as its routes answer it. */
export const Visit = Type.Object({
  checked_in_at: Type.Unsafe<Date | string | null>({ ...NullableDateTime, description: 'when the assigned volunteer checked in; null before' }),
  checked_out_at: Type.Unsafe<Date | string | null>({ ...NullableDateTime, description: 'when the visit was checked out (by the volunteer, the requester\'s side or the completion); null before' }),
}, { additionalProperties: false })

export const CheckOutInput = Type.Object({
  worried: Type.Optional(Type.Boolean({ description: 'true: an urgent concern goes to the moderators in the same step, shown nowhere on the requester\'s side' })),
})
export type CheckOutInput = Static<typeof CheckOutInput>
export const CHECK_OUT_MESSAGES = { worried: 'invalid worried' }

export const INVALID_MINUTES = 'invalid minutes'
export const INVALID_DISTANCE = 'invalid distance_km'

export const ExpensesInput = Type.Object({
  minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440, description: 'the time the help took, a whole number 0..1440; left out: not recorded' })),
  distance_km: Type.Optional(Type.Number({ minimum: 0, maximum: 1000, description: 'kilometres driven for it, 0..1000, rounded to one decimal; left out: not recorded' })),
})
export type ExpensesInput = Static<typeof ExpensesInput>
export const EXPENSES_MESSAGES = { minutes: INVALID_MINUTES, distance_km: INVALID_DISTANCE }

export const Expenses = Type.Object({
  minutes: Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 0, maximum: 1440 }),
  distance_km: Type.Unsafe<number | null>({ type: ['number', 'null'], minimum: 0, maximum: 1000, description: 'one decimal' }),
}, { additionalProperties: false })

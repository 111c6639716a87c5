import { Type, type Static, type TSchema } from 'typebox'
import { EMAIL_FORM, EMAIL_MAX_LENGTH } from '../lib/email.js'

/** Every error response: `{"error": "..."}` (docs/api/conventions.md › Everywhere). */
export const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: false })
export type ErrorBody = Static<typeof ErrorBody>

export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })

/** A timestamp: Date objects from the database are written as ISO 8601 UTC strings. */
export const DateTime = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' })

/** `string | null` as one JSON Schema type list, so length limits still report on the field itself. */
export function NullableString (options: { maxLength?: number, minLength?: number, pattern?: string, format?: string, description?: string } = {}) {
  return Type.Unsafe<string | null>({ type: ['string', 'null'], ...options })
}
export const NullableDateTime = Type.Unsafe<Date | string | null>({ type: ['string', 'null'], format: 'date-time' })
export const NullableNumber = Type.Unsafe<number | null>({ type: ['number', 'null'] })
export const NullableId = Type.Unsafe<number | null>({ type: ['integer', 'null'] })

/**
 * An e-mail address in a request body. Routes trim it before validation (it is stored trimmed), so a
 * client may send white space around it; the pattern says so, where `format: email` would make the
 * document refuse `" a@example.org "`, which the service accepts. Inside: the `email` form, at most 254 characters.
 */
export const Email = Type.String({
  pattern: `^\\s*(?=\\S{1,${EMAIL_MAX_LENGTH}}\\s*$)${EMAIL_FORM}\\s*$`,
  description: 'An e-mail address (JSON Schema `email` form, at most 254 characters); white space around it is removed',
})
/** A time zone (lib/values.ts): its IANA name as the database spells it. */
export const TIME_ZONE = { format: 'time-zone', maxLength: 64 } as const
export const TimeZone = Type.String({ ...TIME_ZONE, description: 'an IANA time zone as the database spells it: Europe/Berlin, UTC' })
export const Latitude = Type.Number({ minimum: -90, maximum: 90 })
export const Longitude = Type.Number({ minimum: -180, maximum: 180 })
/** The phone pattern of lib/values.ts, which the schemas write as `pattern` so the OpenAPI document shows it. */
export { PHONE_PATTERN } from '../lib/values.js'

export const Message = Type.Object({ message: Type.String() })

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: invalid input or a business rule refused it',
  401: 'Not authenticated',
  403: 'Not allowed for the caller\'s role',
  404: 'Not found',
  413: 'The body is larger than 64 KiB',
  415: 'The body is not application/json',
  500: 'Server failure; the body carries only the operation\'s failure text',
}

/** Responses for the error statuses a route documents: `errors(400, 401)`. */
export function errors (...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, { ...ErrorBody, description: ERROR_DESCRIPTIONS[status] ?? 'Error' }]))
}

export const idParams = <K extends string>(name: K) => Type.Object({ [name]: Id } as Record<K, typeof Id>)

export type { Static, TSchema }

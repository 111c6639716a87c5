import type { TFunction } from 'i18next'
import { ApiError } from '../api/errors'

/** One problem to show: the field it belongs to (if any) and its message in the page's language. */
export interface Problem { field?: string, message: string }

/** The API's error texts we know, to a field and a message key (the API's own words stay as a fallback). */
const KNOWN: Record<string, { field?: string, key: string }> = {
  'invalid email': { field: 'email', key: 'errors.emailInvalid' },
  'email is required': { field: 'email', key: 'errors.emailRequired' },
  'email already registered': { field: 'email', key: 'errors.emailTaken' },
  'password is required': { field: 'password', key: 'errors.passwordRequired' },
  'password must be at least 8 characters long': { field: 'password', key: 'errors.passwordShort' },
  'password must be at most 128 characters long': { field: 'password', key: 'errors.passwordLong' },
  'invalid email or password': { field: 'email', key: 'errors.credentials' },
  'account is blocked': { key: 'errors.blocked' },
  'first_name must not be blank': { field: 'first_name', key: 'errors.firstNameRequired' },
  'last_name must not be blank': { field: 'last_name', key: 'errors.lastNameRequired' },
  'invalid phone': { field: 'phone', key: 'errors.phoneInvalid' },
  'invalid latitude': { field: 'latitude', key: 'errors.latitudeInvalid' },
  'invalid longitude': { field: 'longitude', key: 'errors.longitudeInvalid' },
  'latitude and longitude are required': { field: 'latitude', key: 'errors.locationRequired' },
  'latitude and longitude must be given together': { field: 'latitude', key: 'errors.locationTogether' },
  'too many requests, try again later': { key: 'errors.tooMany' },
  'invalid request type': { field: 'request_type_id', key: 'ask.errors.kind' },
  'latitude is required': { field: 'latitude', key: 'errors.latitudeInvalid' },
  'longitude is required': { field: 'longitude', key: 'errors.longitudeInvalid' },
  'title must not be blank': { field: 'title', key: 'ask.errors.title' },
  'description must not be blank': { field: 'description', key: 'ask.errors.description' },
  'address must not be blank': { field: 'address', key: 'ask.errors.address' },
  'moderator role required': { key: 'errors.needModerator' },
  'comment is required when rejecting': { field: 'comment', key: 'moderation.errors.commentRequired' },
  'rating must be an integer from 1 to 5': { field: 'rating', key: 'complete.errors.rating' },
  'invalid radius': { field: 'radius_meters', key: 'availability.errors.radius' },
  'invalid max_alerts_per_day': { field: 'max_alerts_per_day', key: 'availability.errors.perDay' },
  'location required to go on duty': { field: 'on_duty', key: 'availability.errors.locationRequired' },
  'volunteer role required': { key: 'availability.errors.volunteerOnly' },
}

/** Texts like "bio must be at most 500 characters long" name their field first. */
const FIELD_FIRST = /^([a-z_]+) must /

export function serverProblem (error: unknown, t: TFunction, fields: readonly string[]): Problem {
  if (!(error instanceof ApiError)) return { message: t('errors.unexpected') }
  if (error.offline) return { message: t('errors.offline') }
  const known = KNOWN[error.text]
  if (known !== undefined) {
    return known.field !== undefined && fields.includes(known.field) ? { field: known.field, message: t(known.key) } : { message: t(known.key) }
  }
  const field = FIELD_FIRST.exec(error.text)?.[1]
  if (field !== undefined && fields.includes(field)) return { field, message: t('errors.fieldServer', { detail: error.text }) }
  if (error.status >= 500) return { message: t('errors.server') }
  return { message: error.text !== '' ? t('errors.other', { detail: error.text }) : t('errors.unexpected') }
}

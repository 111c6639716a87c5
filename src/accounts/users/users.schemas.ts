import { Type, type Static } from 'typebox'
import { LOCALES, type Locale as LocaleName } from '../../lib/values.js'
import { DateTime, Latitude, Longitude, NullableNumber, NullableString, PHONE_PATTERN } from '../../http/schemas.js'
import { CheckKinds } from '../checks/checks.schemas.js'
import { CAPABILITIES, GENDERS } from '../../lib/matching-values.js'

const Capability = Type.Unsafe<typeof CAPABILITIES[number]>({ type: 'string', enum: [...CAPABILITIES] })
const GenderValue = Type.Unsafe<typeof GENDERS[number]>({ type: 'string', enum: [...GENDERS] })
/** The texts of PATCH /users/me's matching fields (docs/api/visits.md › Needs and matching), for any item of their lists too. */
export const MATCHING_PROFILE_MESSAGES = {
  capabilities: 'invalid capabilities',
  'capabilities.*': 'invalid capabilities',
  languages: 'invalid languages',
  'languages.*': 'invalid languages',
  gender: 'invalid gender',
}

export const UserInfo = Type.Object({
  id: Type.Integer(),
  email: Type.String({ format: 'email' }),
  first_name: Type.String(),
  last_name: Type.String(),
  email_verified: Type.Boolean(),
})
export type UserInfo = Static<typeof UserInfo>

/** The language of a person's e-mails and pushes (docs/api/messaging.md › Deliveries and e-mail); the web app sets it from the language chosen. */
export const Locale = Type.Unsafe<LocaleName>({ type: 'string', enum: [...LOCALES], description: 'language of e-mails and pushes: `en` (default) or `de`' })

export const UserProfile = Type.Object({
  id: Type.Integer(),
  email: Type.Union([Type.String({ format: 'email' }), Type.Null()], { description: 'null (and last_name its initial, "S.") under ADDRESS_PRIVACY=parties for a viewer who may not see the contact details (docs/privacy.md)' }),
  first_name: Type.String(),
  last_name: Type.String(),
  phone: NullableString(),
  bio: NullableString(),
  avatar_url: NullableString(),
  address: NullableString(),
  city: NullableString(),
  volunteer_rating: NullableNumber,
  completed_requests_count: Type.Union([Type.Integer(), Type.Null()]),
  is_verified: Type.Boolean({ description: 'whether the user holds a valid identity check (docs/api/accounts.md › Checks that vet volunteers)' }),
  is_blocked: Type.Boolean(),
  email_verified: Type.Boolean(),
  checks: CheckKinds,
  locale: Locale,
  capabilities: Type.Array(Capability, { description: 'what the volunteer can offer (docs/api/visits.md › Needs and matching); car and wheelchair_vehicle count only while a valid driving check is held' }),
  languages: Type.Array(Type.String(), { description: 'ISO 639-1 codes of the languages the person speaks' }),
  gender: Type.Optional(Type.Union([GenderValue, Type.Null()], {
    description: 'only in the person\'s own profile (GET /users/me) and data export: read by the matching (same_gender), shown to nobody else',
  })),
  created_at: DateTime,
  updated_at: DateTime,
})
export type UserProfile = Static<typeof UserProfile>

/** A name must hold at least one visible character. */
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })

/** Validation texts for names, shared by register and PATCH /users/me. */
export const NAME_MESSAGES = {
  'first_name:minLength': 'first_name must not be blank',
  'first_name:pattern': 'first_name must not be blank',
  'last_name:minLength': 'last_name must not be blank',
  'last_name:pattern': 'last_name must not be blank',
}

/** Own home location (beyond 1.0.1): null and null until one is set. */
export const HomeLocation = Type.Object({ latitude: NullableNumber, longitude: NullableNumber })
export type HomeLocation = Static<typeof HomeLocation>

export const UpdateProfileInput = Type.Object({
  first_name: Type.Optional(Name),
  last_name: Type.Optional(Name),
  phone: Type.Optional(NullableString({ pattern: PHONE_PATTERN })),
  bio: Type.Optional(NullableString({ maxLength: 500 })),
  address: Type.Optional(NullableString({ maxLength: 500 })),
  city: Type.Optional(NullableString({ maxLength: 200 })),
  locale: Type.Optional(Locale),
  // Checked by the service (users.service.ts), so that any wrong list answers with its one text.
  capabilities: Type.Optional(Type.Array(Capability, { uniqueItems: true, description: 'replaces the list; wheelchair_vehicle implies car (stored with it)' })),
  languages: Type.Optional(Type.Array(Type.String(), { maxItems: 10, uniqueItems: true, description: 'ISO 639-1 codes, at most 10' })),
  gender: Type.Optional(Type.Union([GenderValue, Type.Null()], { description: 'woman, man, another or null; only the matching reads it' })),
})
export type UpdateProfileInput = Static<typeof UpdateProfileInput>

export const LocationInput = Type.Object({ latitude: Latitude, longitude: Longitude })
export type LocationInput = Static<typeof LocationInput>

export { Name }

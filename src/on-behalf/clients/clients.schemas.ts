import { Type, type Static } from 'typebox'
import { PaginationQuery } from '../../http/pagination.js'
import { DateTime, Id, NullableNumber, NullableString, PHONE_PATTERN } from '../../http/schemas.js'
import { GENDERS, type Gender } from '../../lib/matching-values.js'
import { LOCALES, type Locale } from '../../lib/values.js'

/** docs/api/on-behalf.md › Coordinators and clients: a person without an account whom coordinators ask for. */

export const CONSENT_HOWS = ['phone', 'in_person', 'written'] as const
export type ConsentHow = typeof CONSENT_HOWS[number]
const ConsentHow = Type.Unsafe<ConsentHow>({ type: 'string', enum: [...CONSENT_HOWS], description: 'how the client agreed to be recorded' })
const TextsHow = Type.Unsafe<ConsentHow>({ type: 'string', enum: [...CONSENT_HOWS], description: 'how the client agreed to get texts: by phone, in person, in writing' })
const ClientLocale = Type.Unsafe<Locale>({ type: 'string', enum: [...LOCALES], description: 'the language of the client\'s texts: `en` (default) or `de`' })
/** Who recorded a consent: an id, as `consent.recorded_by` (and a check's `verified_by`). */
const RecordedBy = Type.Union([Type.Integer(), Type.Null()], { description: 'the coordinator; null once their account is gone' })

/** At least one character that is not white space. */
const VISIBLE = '\\S'
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: VISIBLE })
const NullableLatitude = Type.Unsafe<number | null>({ type: ['number', 'null'], minimum: -90, maximum: 90 })
const NullableLongitude = Type.Unsafe<number | null>({ type: ['number', 'null'], minimum: -180, maximum: 180 })

/** The fields a coordinator writes; latitude and longitude both or neither (the service says so). */
const writable = {
  phone: Type.Optional(NullableString({ pattern: PHONE_PATTERN, description: 'the 1.0.1 phone pattern, e.g. +491701234567' })),
  address: Type.Optional(NullableString({ maxLength: 500 })),
  city: Type.Optional(NullableString({ maxLength: 200 })),
  latitude: Type.Optional(NullableLatitude),
  longitude: Type.Optional(NullableLongitude),
  needs: Type.Optional(NullableString({ maxLength: 1000, description: 'for example "wheelchair, needs help on stairs"' })),
  // docs/api/visits.md › Needs and matching: read by the matching of the client's requests; shown only by GET and PATCH /clients/{id}.
  gender: Type.Optional(Type.Union([Type.Unsafe<Gender>({ type: 'string', enum: [...GENDERS] }), Type.Null()], { description: 'woman, man, another or null' })),
  languages: Type.Optional(Type.Array(Type.String(), { maxItems: 5, uniqueItems: true, description: 'ISO 639-1 codes the client speaks, at most 5; their requests take them when they name none' })),
}

export const ConsentInput = Type.Object({ how: ConsentHow }, { description: 'recorded_by (the caller) and recorded_at (now) are set by the service' })

export const CreateClientInput = Type.Object({ first_name: Name, last_name: Name, ...writable, consent: ConsentInput })
export type CreateClientInput = Static<typeof CreateClientInput>

export const UpdateClientInput = Type.Object({
  first_name: Type.Optional(Name),
  last_name: Type.Optional(Name),
  ...writable,
  consent: Type.Optional(Type.Object({ how: ConsentHow }, { description: 'a consent recorded again: by the caller, now' })),
  // docs/api/on-behalf.md › Texts to a client: consent heard by the coordinator; null withdraws it.
  texts: Type.Optional(Type.Union([Type.Object({ how: TextsHow }), Type.Null()], { description: 'the client\'s consent to texts, recorded (again) by the caller, now; null withdraws it' })),
  locale: Type.Optional(ClientLocale),
})
export type UpdateClientInput = Static<typeof UpdateClientInput>

export const Client = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  phone: NullableString(),
  address: NullableString(),
  city: NullableString(),
  latitude: NullableNumber,
  longitude: NullableNumber,
  needs: NullableString(),
  gender: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'only from /clients/{id} (GET and PATCH)' })),
  languages: Type.Optional(Type.Array(Type.String(), { description: 'only from /clients/{id} (GET and PATCH)' })),
  consent: Type.Object({ how: ConsentHow, recorded_by: RecordedBy, recorded_at: DateTime }),
  texts: Type.Union([Type.Object({ how: TextsHow, recorded_by: RecordedBy, recorded_at: DateTime }), Type.Null()], { description: 'the client\'s consent to texts (docs/api/on-behalf.md › Texts to a client); null: they get none' }),
  locale: ClientLocale,
  created_at: DateTime,
  updated_at: DateTime,
})
export type Client = Static<typeof Client>

export const ClientQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'part of the name ("Erna", "Erna Sch"), or of the phone number in any spelling ("+49 170 1234567", "0049 170…", "170 1234 567")' })),
  ...PaginationQuery,
})
export type ClientQuery = Static<typeof ClientQuery>

export const ClientIdParams = Type.Object({ id: Id })

export const CLIENT_ERASED = 'client erased'
export const LOCATION_TOGETHER = 'latitude and longitude must be given together'
export const CLIENT_MESSAGES = {
  id: 'invalid client id',
  'consent:required': 'consent is required',
  consent: 'consent is required',
  'consent.how:required': 'consent is required',
  'consent.how': 'invalid consent',
  'first_name:pattern': 'first_name must not be blank',
  'last_name:pattern': 'last_name must not be blank',
  phone: 'invalid phone',
  latitude: 'invalid latitude',
  longitude: 'invalid longitude',
  gender: 'invalid gender',
  languages: 'invalid languages',
  'languages.*': 'invalid languages',
  texts: 'invalid texts',
  'texts.how': 'invalid texts',
  'texts.how:required': 'invalid texts',
  locale: 'invalid locale',
}

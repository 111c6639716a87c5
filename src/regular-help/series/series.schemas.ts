import { Type, type Static } from 'typebox'
import { PaginationQuery } from '../../http/pagination.js'
import { DateTime, Id, NullableId, NullableString, TimeZone } from '../../http/schemas.js'
import { CREATE_REQUEST_MESSAGES, CreateRequestInput } from '../../help/requests/requests.schemas.js'
import { Needs } from '../../help/request-types/request-types.schemas.js'
import { DAYS, type Day } from './recurrence.js'

/** docs/api/schedule.md › Series: the fields of CreateRequestInput but its dates, checked as on creation, and auto_accept_preferred. */
const { desired_completion_date: _date, window_start: _start, window_end: _end, ...requestFields } = CreateRequestInput.properties
export const SeriesTemplate = Type.Object({
  ...requestFields,
  auto_accept_preferred: Type.Optional(Type.Boolean({ default: false, description: 'the preferred volunteer\'s offer is accepted as the requester would (docs/api/schedule.md)' })),
})
export type SeriesTemplate = Static<typeof SeriesTemplate>

/** The template in answers: as stored, without the input's limits (erasure leaves "(removed)" in it). */
const SeriesTemplateAnswer = Type.Object({
  request_type_id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  address: Type.String(),
  city: Type.Optional(Type.String()),
  urgency: requestFields.urgency,
  contact_phone: Type.Optional(Type.String()),
  contact_notes: Type.Optional(Type.String()),
  auto_accept_preferred: Type.Boolean(),
  // docs/api/visits.md › Needs and matching: carried to every occurrence; [] for a template stored before them.
  needs: Needs,
  languages: Type.Array(Type.String(), { description: 'ISO 639-1 codes' }),
})

const Days = Type.Array(Type.Unsafe<Day>({ type: 'string', enum: [...DAYS] }), {
  minItems: 1, maxItems: 7, uniqueItems: true, description: '1 to 7 distinct days; answers list them in week order',
})
const TIME = '^([01][0-9]|2[0-3]):[0-5][0-9]$'
const LocalTime = (description: string) => Type.String({ pattern: TIME, description })
const NullableLocalTime = (description: string) => NullableString({ pattern: TIME, description })
const Duration = Type.Integer({ minimum: 15, maximum: 720, description: 'minutes, 15..720' })
const EveryWeeks = Type.Integer({ minimum: 1, maximum: 4, description: '1..4, counted from the Monday-to-Sunday week of starts_on' })
const EndsOn = NullableString({ format: 'date', description: 'after starts_on and at most 2 years after it; null: no end' })
const ReturnTime = NullableLocalTime('a return trip the same day lasting duration_minutes, starting at or after the outbound window\'s end')

export const CreateSeriesInput = Type.Object({
  template: SeriesTemplate,
  days: Days,
  start_time: LocalTime('HH:MM, local time in time_zone'),
  duration_minutes: Duration,
  every_weeks: Type.Optional({ ...EveryWeeks, default: 1 }),
  starts_on: Type.String({ format: 'date', description: 'today in time_zone or later' }),
  ends_on: Type.Optional(EndsOn),
  return_time: Type.Optional(ReturnTime),
  time_zone: Type.Optional({ ...TimeZone, description: 'an IANA time zone as the database spells it (Europe/Berlin); default TIME_ZONE' }),
})
export type CreateSeriesInput = Static<typeof CreateSeriesInput>

export const UpdateSeriesInput = Type.Object({
  template: Type.Optional(SeriesTemplate),
  days: Type.Optional(Days),
  start_time: Type.Optional(LocalTime('HH:MM, local time in time_zone')),
  duration_minutes: Type.Optional(Duration),
  every_weeks: Type.Optional(EveryWeeks),
  ends_on: Type.Optional(EndsOn),
  return_time: Type.Optional(ReturnTime),
})
export type UpdateSeriesInput = Static<typeof UpdateSeriesInput>

export const SERIES_STATUSES = ['pending_moderation', 'active', 'rejected', 'ended'] as const
export type SeriesStatus = typeof SERIES_STATUSES[number]

export const Series = Type.Object({
  id: Type.Integer(),
  requester_id: Type.Integer(),
  template: SeriesTemplateAnswer,
  days: Days,
  start_time: Type.String(),
  duration_minutes: Type.Integer(),
  every_weeks: Type.Integer(),
  starts_on: Type.String({ format: 'date' }),
  ends_on: NullableString({ format: 'date' }),
  return_time: NullableString(),
  time_zone: Type.String(),
  preferred_volunteer_id: NullableId,
  client_id: { ...NullableId, description: 'docs/api/on-behalf.md › Series for someone: the client the series is asked for; its occurrences carry it' },
  status: Type.Unsafe<SeriesStatus>({ type: 'string', enum: [...SERIES_STATUSES] }),
  created_at: DateTime,
  updated_at: DateTime,
})
export type Series = Static<typeof Series>

const WHOLE_ID = '^\\s*[1-9]\\d{0,15}\\s*$'
/** GET /request-series/mine: a page, and whose series (docs/api/on-behalf.md › Series for someone): a carer's person, or a client. */
export const MySeriesQuery = Type.Object({
  ...PaginationQuery,
  for_user_id: Type.Optional(Type.String({ pattern: WHOLE_ID, description: 'a person who made the caller their carer: her series' })),
  client_id: Type.Optional(Type.String({ pattern: WHOLE_ID, description: 'a client (coordinators): every series asked for them, by any coordinator' })),
})
export type MySeriesQuery = Static<typeof MySeriesQuery>
export const MY_SERIES_MESSAGES = { for_user_id: 'invalid for_user_id', client_id: 'invalid client_id' }

export const SeriesIdParams = Type.Object({ id: Id })
export const SERIES_ID_MESSAGES = { id: 'invalid series id' }

/** docs/api/schedule.md › Series's texts. */
const PATTERN_MESSAGES = {
  days: 'invalid days',
  start_time: 'invalid start_time',
  duration_minutes: 'invalid duration_minutes',
  every_weeks: 'invalid every_weeks',
  starts_on: 'invalid starts_on',
  ends_on: 'invalid ends_on',
  return_time: 'invalid return_time',
  time_zone: 'invalid time_zone',
}
/** The request fields' texts inside `template`, and each of `days` (checked after their count, so 0..6 suffice). */
export const SERIES_MESSAGES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(CREATE_REQUEST_MESSAGES).map(([key, text]) => [`template.${key}`, text])),
  ...PATTERN_MESSAGES,
  ...Object.fromEntries(DAYS.map((_day, i) => [`days.${i}`, PATTERN_MESSAGES.days])),
}

export const SERIES_NOT_FOUND = 'series not found'
export const NOT_PENDING = 'series is not in pending_moderation status'

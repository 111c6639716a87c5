import { Type, type Static } from 'typebox'

const DATE = 'A date YYYY-MM-DD in TIME_ZONE, inclusive'

export const ReportRangeQuery = Type.Object({
  from: Type.Optional(Type.String({ description: `${DATE}; default: the first day of the month eleven months before \`to\`'s month` })),
  to: Type.Optional(Type.String({ description: `${DATE}; default: today` })),
})

export const SummaryQuery = Type.Object({
  ...ReportRangeQuery.properties,
  by: Type.Optional(Type.String({ description: '`month` (default) or `week` (Monday to Sunday)' })),
})
export type SummaryQuery = Static<typeof SummaryQuery>

/** A query value sent twice arrives as a list, which the schema refuses: the same texts as a bad value. */
export const RANGE_MESSAGES = { from: 'invalid from', to: 'invalid to', by: 'invalid by' }

const SmallCount = Type.Unsafe<number | null>({
  type: ['integer', 'null'],
  minimum: 0,
  description: 'null when 1 to 4 (named in `suppressed`); 0 stays 0',
})
const Minutes = Type.Unsafe<number | null>({ type: ['number', 'null'], minimum: 0, description: 'minutes, one decimal; null when no request had one' })

export const SummaryPeriod = Type.Object({
  start: Type.String({ format: 'date', description: 'The period\'s first day: the first of the month or a Monday, or `from` for the first period' }),
  requests_created: Type.Integer({ minimum: 0, description: 'Requests created in the period' }),
  requests_completed: Type.Integer({ minimum: 0, description: 'Requests completed in the period' }),
  requests_cancelled: Type.Integer({ minimum: 0, description: 'Requests cancelled in the period, other than by expiry' }),
  requests_expired: Type.Integer({ minimum: 0, description: 'Requests the service cancelled in the period because their time passed unassigned' }),
  people_helped: SmallCount,
  active_volunteers: SmallCount,
  hours_of_help: Type.Number({ minimum: 0, description: 'Sum of accepted-to-completed times of the requests completed in the period, each capped at 12 h; two decimals' }),
  hours_of_help_recorded: Type.Number({ minimum: 0, description: 'Sum of the minutes the volunteers recorded for the requests completed in the period (docs/api/visit-checks.md › Hours and mileage), in hours; two decimals' }),
  distance_km: Type.Number({ minimum: 0, description: 'Sum of the kilometres the volunteers recorded for the requests completed in the period; one decimal' }),
  median_minutes_to_first_offer: Minutes,
  median_minutes_to_accept: Minutes,
  by_type: Type.Record(Type.String(), SmallCount, { description: 'Requests created in the period per request type name' }),
  by_urgency: Type.Record(Type.String(), SmallCount, { description: 'Requests created in the period per urgency' }),
  suppressed: Type.Array(Type.String(), { description: 'The fields shown as null: `people_helped`, `by_type.Shopping`, `by_urgency.high`' }),
}, { additionalProperties: false })

export const Summary = Type.Object({
  periods: Type.Array(SummaryPeriod),
  suppressed_below: Type.Literal(5),
}, { additionalProperties: false })
export type Summary = Static<typeof Summary>
export type SummaryPeriod = Static<typeof SummaryPeriod>

export const CSV_HEADER = ['id', 'created_at', 'request_type', 'urgency', 'status', 'cancel_reason', 'city', 'grid_cell',
  'minutes_to_first_offer', 'minutes_to_accept', 'completed_at', 'hours_of_help', 'rating', 'on_behalf'] as const

export const RequestsCsv = Type.String({
  description: `RFC 4180, UTF-8, lines ending in CRLF; the header row \`${CSV_HEADER.join(',')}\`, then one row per request ` +
    'created in the range, oldest first. Empty cells for nulls; a cell starting with = + - @ (or a tab or CR) starts with \'.',
})

export const VOLUNTEERS_CSV_HEADER = ['volunteer_id', 'name', 'visits', 'minutes', 'distance_km', 'amount'] as const

export const VolunteersCsv = Type.String({
  description: `RFC 4180, UTF-8, lines ending in CRLF; the header row \`${VOLUNTEERS_CSV_HEADER.join(',')}\`, then one row per volunteer ` +
    'assigned to a request completed in the range, by volunteer id: `visits` those requests, `minutes` and `distance_km` (one decimal) what ' +
    'they recorded for them, `amount` distance_km × MILEAGE_RATE with two decimals. A cell starting with = + - @ (or a tab or CR) starts with \'.',
})

import { Type, type Static } from 'typebox'
import { NullableDateTime } from '../../http/schemas.js'
import type { AvailabilityRow } from './availability.repo.js'

const MAX_REQUEST_TYPES = 50

const Coordinate = (limit: number) => Type.Unsafe<number | null>({ type: ['number', 'null'], minimum: -limit, maximum: limit })

/** Every field optional; an absent field keeps its value (docs/api/help.md › Availability). */
export const AvailabilityInput = Type.Object({
  on_duty: Type.Optional(Type.Boolean()),
  radius_meters: Type.Optional(Type.Integer({ minimum: 100, maximum: 50000, description: 'default 5000' })),
  latitude: Type.Optional(Coordinate(90)),
  longitude: Type.Optional(Coordinate(180)),
  request_type_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    { maxItems: MAX_REQUEST_TYPES, description: 'active request type ids; empty = every kind' })),
  max_alerts_per_day: Type.Optional(Type.Integer({ minimum: 0, maximum: 50, description: 'default 10; 0 = never alerted' })),
})
export type AvailabilityInput = Static<typeof AvailabilityInput>

export const AVAILABILITY_MESSAGES: Record<string, string> = {
  // Ajv checks maxItems before the items, so a bad item is always one of the first 50.
  ...Object.fromEntries(Array.from({ length: MAX_REQUEST_TYPES }, (_, i) => [`request_type_ids.${i}`, 'invalid request type'])),
  radius_meters: 'invalid radius',
  latitude: 'invalid latitude',
  longitude: 'invalid longitude',
  request_type_ids: 'invalid request type',
  max_alerts_per_day: 'invalid max_alerts_per_day',
}

export const Availability = Type.Object({
  on_duty: Type.Boolean(),
  radius_meters: Type.Integer(),
  latitude: Type.Union([Type.Number(), Type.Null()], { description: 'null when the home location is used' }),
  longitude: Type.Union([Type.Number(), Type.Null()]),
  request_type_ids: Type.Array(Type.Integer()),
  max_alerts_per_day: Type.Integer(),
  uses_home_location: Type.Boolean({ description: 'true when no availability point is set: alerts are then measured from the home location' }),
  alerts_last_24h: Type.Integer(),
  updated_at: NullableDateTime,
})
export type Availability = Static<typeof Availability>

/** A stored row as GET /users/me/availability returns it (the export uses it too). */
export function toAvailability (row: AvailabilityRow): Availability {
  return {
    on_duty: row.on_duty,
    radius_meters: row.radius_meters,
    latitude: row.latitude,
    longitude: row.longitude,
    request_type_ids: row.request_type_ids.map(Number),
    max_alerts_per_day: row.max_alerts_per_day,
    uses_home_location: row.latitude === null,
    alerts_last_24h: row.alerts_last_24h,
    updated_at: row.updated_at,
  }
}

import { Type, type Static } from 'typebox'
import { PaginationQuery } from '../../http/pagination.js'
import { DateTime, Id, Latitude, Longitude, NullableDateTime, NullableId, NullableString } from '../../http/schemas.js'
import { NeedCode, Needs, RequestType } from '../request-types/request-types.schemas.js'
import { UserInfo } from '../../accounts/users/users.schemas.js'
import { REQUEST_STATUSES, URGENCIES, type RequestStatus as RequestStatusValue, type Urgency as UrgencyValue } from './requests.values.js'

/**
 * RequestDetail's `client` for the request's parties: the last name shortened to its initial ("S."), as the interface
 * says, and the whole name in `full_name` (beyond it): the volunteer who comes needs the surname at the door.
 */
export const ClientSummary = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String({ description: 'the initial and a full stop ("S."); the whole record through GET /clients/{id}' }),
  full_name: Type.String({ description: 'beyond interface 1.0.1: "first_name last_name" in full, for the same readers (the assigned volunteer rings the client\'s doorbell; docs/api/on-behalf.md › Coordinators and clients)' }),
  needs: NullableString(),
})
export type ClientSummary = Static<typeof ClientSummary>

export { REQUEST_STATUSES, URGENCIES }
export type Urgency = UrgencyValue
export type RequestStatus = RequestStatusValue

export const Urgency = Type.Unsafe<Urgency>({ type: 'string', enum: [...URGENCIES] })
export const RequestStatus = Type.Unsafe<RequestStatus>({ type: 'string', enum: [...REQUEST_STATUSES] })

/** At least one character that is not white space. */
const VISIBLE = '\\S'

export const CreateRequestInput = Type.Object({
  request_type_id: Id,
  title: Type.String({ minLength: 5, maxLength: 200, pattern: VISIBLE }),
  description: Type.String({ minLength: 10, maxLength: 2000, pattern: VISIBLE }),
  // Optional in the schema only for a client's request, which takes the client's (docs/api/on-behalf.md › Coordinators and clients); else required (the service says so).
  latitude: Type.Optional(Latitude),
  longitude: Type.Optional(Longitude),
  address: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: VISIBLE })),
  city: Type.Optional(Type.String({ maxLength: 200 })),
  desired_completion_date: Type.Optional(NullableString({ format: 'date-time' })),
  // docs/api/schedule.md › A time window on a request: both or neither; desired_completion_date becomes window_end.
  window_start: Type.Optional(Type.String({ format: 'date-time', description: 'docs/api/schedule.md: with window_end, in the future; the window lasts at most 24 hours' })),
  window_end: Type.Optional(Type.String({ format: 'date-time', description: 'after window_start; desired_completion_date is set to it' })),
  urgency: Urgency,
  contact_phone: Type.Optional(Type.String({ maxLength: 50 })),
  contact_notes: Type.Optional(Type.String({ maxLength: 2000 })),
  // docs/api/visits.md › Needs and matching; repeated or unknown codes are refused by the schema, the rest by needs-input.ts.
  needs: Type.Optional(Type.Array(NeedCode, { uniqueItems: true, description: 'codes of GET /needs, each once; left out: the type\'s default_needs; []: none' })),
  languages: Type.Optional(Type.Array(Type.String(), {
    maxItems: 5, uniqueItems: true, description: 'ISO 639-1 codes the requester speaks, at most 5; a volunteer must share one when it is not empty',
  })),
  on_behalf_of: Type.Optional(Type.Union([
    Type.Object({ client_id: Id }, { additionalProperties: false }),
    Type.Object({ user_id: Id }, { additionalProperties: false }),
  ], { description: 'docs/api/on-behalf.md: a client of the coordinators (`client_id`, coordinators only), or a person who let the caller ask for them (`user_id`, a carer with `create`)' })),
})
export type CreateRequestInput = Static<typeof CreateRequestInput>

/** docs/privacy.md › The `location` field. */
export const Location = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  precision_meters: Type.Integer({ description: '0 when exact; otherwise the grid size (MAP_GRID_METERS): the point is the centre of the request\'s grid cell' }),
}, { description: 'Exact for the requester, moderators, admins and the assigned volunteer while in_progress or completed; otherwise the centre of the request\'s grid cell (docs/api/help.md › Maps)' })
export type Location = Static<typeof Location>

/** docs/api/schedule.md › A time window on a request: a request's window, its series, and its volunteer's confirmation (› Confirmation, reminders, expiry). */
const scheduleFields = {
  window_start: NullableDateTime,
  window_end: NullableDateTime,
  series_id: NullableId,
  confirmed_at: NullableDateTime,
}
export const CancelReason = Type.Unsafe<'requester' | 'moderator' | 'expired' | 'series_changed'>({ type: 'string', enum: ['requester', 'moderator', 'expired', 'series_changed'] })

/** docs/api/visits.md › Needs and matching: what the helper must bring and the languages the requester speaks. */
const needsFields = {
  needs: Needs,
  languages: Type.Array(Type.String(), { description: 'ISO 639-1 codes; a volunteer must share one when it is not empty' }),
}
/** Only for a caller who offers help (respond_request): whether they meet the needs now. */
const Suitable = Type.Optional(Type.Boolean({
  description: 'whether the caller meets every need and shares a language (docs/api/visits.md › Needs and matching); only for callers who may offer help',
}))

const requestFields = {
  id: Type.Integer(),
  requester_id: Type.Integer(),
  request_type_id: Type.Integer(),
  assigned_volunteer_id: NullableId,
  title: Type.String(),
  description: Type.String(),
  address: Type.String(),
  city: NullableString(),
  desired_completion_date: NullableDateTime,
  urgency: NullableString(),
  status: RequestStatus,
  contact_phone: NullableString(),
  contact_notes: NullableString(),
  created_at: DateTime,
  updated_at: DateTime,
  ...scheduleFields,
  return_of: NullableId,
  cancel_reason: Type.Union([CancelReason, Type.Null()], { description: 'why it was cancelled (docs/api/schedule.md); null unless cancelled' }),
  client_id: Type.Union([Type.Integer(), Type.Null()], { description: 'docs/api/on-behalf.md › Coordinators and clients: the client a coordinator asked for; null for a request asked by its requester or a carer' }),
  ...needsFields,
}

export const Request = Type.Object(requestFields)
export type Request = Static<typeof Request>

/** docs/privacy.md › `ADDRESS_PRIVACY=parties`: what tells a reader the address and name are shortened for them. */
const AddressHidden = Type.Optional(Type.Boolean({
  description: 'Under ADDRESS_PRIVACY=parties only (absent under `full`): true when `address` is only the city (or "address shared after acceptance") ' +
    'and the requester\'s name is shortened, because the caller is not a party to the request (docs/privacy.md); false otherwise',
}))
const ADDRESS_TEXT = 'the street address; under ADDRESS_PRIVACY=parties, to all but the requester, moderators, admins and the assigned volunteer ' +
  '(in_progress or completed), the city, or "address shared after acceptance" when it has none'

/** The requester as RequestDetail shows them: under ADDRESS_PRIVACY=parties a non-party sees "S." and no e-mail. */
export const RequestDetailRequester = Type.Object({
  ...UserInfo.properties,
  email: NullableString({ format: 'email', description: 'null when `address_hidden` is true' }),
  last_name: Type.String({ description: 'only the initial with a full stop ("S.") when `address_hidden` is true' }),
})

export const RequestDetail = Type.Object({
  ...requestFields,
  address: Type.String({ description: ADDRESS_TEXT }),
  address_hidden: AddressHidden,
  requester: RequestDetailRequester,
  request_type: RequestType,
  assigned_volunteer: Type.Union([UserInfo, Type.Null()]),
  location: Location,
  suitable: Suitable,
  client: Type.Union([ClientSummary, Type.Null()], {
    description: 'docs/api/on-behalf.md › Coordinators and clients: the client a coordinator asked for, to the request\'s parties; null to others, for a request asked by its requester, and once the client is erased',
  }),
})
export type RequestDetail = Static<typeof RequestDetail>

const listItemFields = {
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  address: Type.String({ description: ADDRESS_TEXT }),
  city: NullableString(),
  urgency: Type.String(),
  status: RequestStatus,
  requester_name: Type.String({ description: '"first_name last_name"; "Erna S." when `address_hidden` is true' }),
  request_type_name: Type.String(),
  created_at: DateTime,
  ...scheduleFields,
  location: Location,
  address_hidden: AddressHidden,
  ...needsFields,
  suitable: Suitable,
}
export const RequestListItem = Type.Object(listItemFields)
export type RequestListItem = Static<typeof RequestListItem>

/** GET /requests/coordinated (docs/api/on-behalf.md › Coordinators and clients): a client's request, with whom to phone. */
export const CoordinatedRequest = Type.Object({
  ...listItemFields,
  client_id: Type.Integer(),
  client_name: NullableString({ description: 'the client\'s first name and last initial ("Erna S."); null once the client is erased' }),
  // What a coordinator tells the client on the phone, without reading each request (which would record an access).
  desired_completion_date: NullableDateTime,
  cancel_reason: Type.Union([CancelReason, Type.Null()], { description: 'why it was cancelled; null unless cancelled' }),
  volunteer_first_name: NullableString({ description: 'the assigned volunteer\'s first name while in_progress or completed; null otherwise' }),
  client_texts: Type.Array(Type.Object({
    type: Type.String({ description: 'the notification it told: response_accepted, request_cancelled, reminder, volunteer_confirmed, confirmation_missed or still_needed' }),
    status: Type.String({ description: 'as a delivery\'s: pending, sent, delivered, undeliverable, failed or dropped' }),
    at: Type.String({ format: 'date-time', description: 'when it was sent, else when it was written' }),
  }), { description: 'the texts the client got (or is to get) about this request, oldest first (docs/api/on-behalf.md › Texts to a client); empty without consent to texts' }),
})
export type CoordinatedRequest = Static<typeof CoordinatedRequest>
export const CoordinatedQuery = Type.Object({ status: Type.Optional(RequestStatus), ...PaginationQuery })
export type CoordinatedQuery = Static<typeof CoordinatedQuery>
export const COORDINATED_MESSAGES = { status: 'invalid status' }

export const RequestWithDistance = Type.Object({ ...listItemFields, distance_meters: Type.Number() })
export type RequestWithDistance = Static<typeof RequestWithDistance>

export const RequestIdParams = Type.Object({ id: Id })
export const REQUEST_ID_MESSAGES = { id: 'invalid request id' }

/** Texts of create-request validation failures where the generic sentence would not do. */
export const CREATE_REQUEST_MESSAGES = {
  latitude: 'invalid latitude',
  'latitude:required': 'latitude is required',
  longitude: 'invalid longitude',
  'longitude:required': 'longitude is required',
  request_type_id: 'invalid request type',
  'request_type_id:required': 'request_type_id is required',
  'title:pattern': 'title must not be blank',
  'description:pattern': 'description must not be blank',
  'address:pattern': 'address must not be blank',
  needs: 'invalid needs',
  'needs.*': 'invalid needs',
  languages: 'invalid languages',
  'languages.*': 'invalid languages',
}

/** Query parameters are declared as text, so that the route reads them with the interface's texts (requests.query.ts). */
const text = (description: string) => Type.Optional(Type.String({ description }))

const SUITABLE_QUERY = '`true`: only the requests the caller can help with (docs/api/visits.md › Needs and matching); `false` or left out: all'
export const NearbyQuery = Type.Object({
  lat: text('latitude of the point, -90..90 (required)'),
  lon: text('longitude of the point, -180..180 (required)'),
  radius: text('metres, 100..50000, default 5000'),
  suitable: text(SUITABLE_QUERY),
  ...PaginationQuery,
})
export type NearbyQuery = Static<typeof NearbyQuery>
/** A parameter given twice arrives as a list, which is no number either. */
export const NEARBY_MESSAGES = { lat: 'invalid latitude', lon: 'invalid longitude', radius: 'invalid radius', suitable: 'invalid suitable' }

const rectangleQuery = {
  min_lon: text('west edge, -180..180 (required); greater than max_lon when the rectangle crosses the antimeridian'),
  min_lat: text('south edge, -90..90 (required)'),
  max_lon: text('east edge, -180..180 (required)'),
  max_lat: text('north edge, -90..90, not below min_lat (required)'),
  suitable: text(SUITABLE_QUERY),
}
export const BoundsQuery = Type.Object({ ...rectangleQuery, ...PaginationQuery })
export type BoundsQuery = Static<typeof BoundsQuery>
export const MapQuery = Type.Object({
  ...rectangleQuery,
  center_lat: text('latitude the markers are chosen nearest to, -90..90; with center_lon (default: the rectangle\'s middle)'),
  center_lon: text('longitude the markers are chosen nearest to, -180..180; with center_lat (default: the rectangle\'s middle)'),
})
export type MapQuery = Static<typeof MapQuery>
export const BOUNDS_MESSAGES = { min_lon: 'invalid min_lon', min_lat: 'invalid min_lat', max_lon: 'invalid max_lon', max_lat: 'invalid max_lat', suitable: 'invalid suitable' }
export const MAP_MESSAGES = { ...BOUNDS_MESSAGES, center_lat: 'invalid center_lat', center_lon: 'invalid center_lon' }

/** What a map draws of one request (docs/api/help.md › Maps): its place, its name and what it is, no more. */
export const MapMarker = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  request_type_id: Type.Integer(),
  urgency: Type.String(),
  status: RequestStatus,
  location: Location,
})
export type MapMarker = Static<typeof MapMarker>

export const MapView = Type.Object({
  markers: Type.Array(MapMarker),
  truncated: Type.Boolean({ description: 'true when more requests lie in the rectangle than the cap (MAP_MARKER_CAP) let through: those nearest its centre are shown' }),
})
export type MapView = Static<typeof MapView>

/** The web app's map pictures and geocoder (MAP_TILE_URL, MAP_TILE_ATTRIBUTION, GEOCODER_URL). */
export const MapSettings = Type.Object({
  tile_url: Type.String({ description: 'raster tiles, with {z}, {x} and {y}' }),
  attribution: Type.String({ description: 'plain text to show on the map' }),
  geocoder_url: Type.Union([Type.String(), Type.Null()], { description: 'a Nominatim-compatible geocoder (`<url>/search`), or null when there is none' }),
})

/** GET /requests/my: a page, and `for_user_id`, the person whose requests a carer reads (docs/api/on-behalf.md › Carers). */
export const MyRequestsQuery = Type.Object({
  ...PaginationQuery,
  for_user_id: Type.Optional(Type.String({ pattern: '^\\s*[1-9]\\d{0,15}\\s*$', description: 'a person who made the caller their carer (with `follow`)' })),
})
export type MyRequestsQuery = Static<typeof MyRequestsQuery>
export const MY_REQUESTS_MESSAGES = { for_user_id: 'invalid for_user_id' }

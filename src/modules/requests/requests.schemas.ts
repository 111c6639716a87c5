import { Type, type Static } from 'typebox'
import { DateTime, Id, Latitude, Longitude, NullableDateTime, NullableId, NullableString } from '../../http/schemas.js'
import { RequestType } from '../request-types/request-types.routes.js'
import { UserInfo } from '../users/users.schemas.js'

export const URGENCIES = ['low', 'medium', 'high', 'urgent'] as const
export type Urgency = typeof URGENCIES[number]
export const REQUEST_STATUSES = ['pending_moderation', 'approved', 'in_progress', 'completed', 'cancelled', 'rejected'] as const
export type RequestStatus = typeof REQUEST_STATUSES[number]
/** Statuses the searches consider (interface.md › Requests). */
export const ACTIVE_STATUSES: readonly RequestStatus[] = ['pending_moderation', 'approved', 'in_progress']

export const Urgency = Type.Unsafe<Urgency>({ type: 'string', enum: [...URGENCIES] })
export const RequestStatus = Type.Unsafe<RequestStatus>({ type: 'string', enum: [...REQUEST_STATUSES] })

export const CreateRequestInput = Type.Object({
  request_type_id: Id,
  title: Type.String({ minLength: 5, maxLength: 200 }),
  description: Type.String({ minLength: 10, maxLength: 2000 }),
  latitude: Latitude,
  longitude: Longitude,
  address: Type.String({ minLength: 1, maxLength: 500 }),
  city: Type.Optional(Type.String({ maxLength: 200 })),
  desired_completion_date: Type.Optional(NullableString({ format: 'date-time' })),
  urgency: Urgency,
  contact_phone: Type.Optional(Type.String({ maxLength: 50 })),
  contact_notes: Type.Optional(Type.String({ maxLength: 2000 })),
}, { additionalProperties: false })
export type CreateRequestInput = Static<typeof CreateRequestInput>

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
}

export const Request = Type.Object(requestFields)
export type Request = Static<typeof Request>

export const RequestDetail = Type.Object({
  ...requestFields,
  requester: UserInfo,
  request_type: RequestType,
  assigned_volunteer: Type.Union([UserInfo, Type.Null()]),
})
export type RequestDetail = Static<typeof RequestDetail>

const listItemFields = {
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  address: Type.String(),
  city: NullableString(),
  urgency: Type.String(),
  status: RequestStatus,
  requester_name: Type.String(),
  request_type_name: Type.String(),
  created_at: DateTime,
}
export const RequestListItem = Type.Object(listItemFields)
export type RequestListItem = Static<typeof RequestListItem>

export const RequestWithDistance = Type.Object({ ...listItemFields, distance_meters: Type.Number() })
export type RequestWithDistance = Static<typeof RequestWithDistance>

export const RequestIdParams = Type.Object({ id: Id })
export const REQUEST_ID_MESSAGES = { id: 'invalid request id' }

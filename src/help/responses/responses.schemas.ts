import { Type, type Static } from 'typebox'
import { DateTime, Id, NullableDateTime, NullableNumber, NullableString } from '../../http/schemas.js'
import { CheckKinds } from '../../accounts/checks/checks.schemas.js'
import { REQUEST_ID_MESSAGES, RequestStatus } from '../requests/requests.schemas.js'
import { RESPONSE_STATUSES, type ResponseStatus as ResponseStatusValue } from './responses.values.js'

export { RESPONSE_STATUSES }
export type ResponseStatus = ResponseStatusValue
export const ResponseStatus = Type.Unsafe<ResponseStatus>({ type: 'string', enum: [...RESPONSE_STATUSES] })

/**
 * docs/api/help.md › Volunteer responses, completion and ratings: who is offering, so the requester can judge an offer. Carried on every response anyone
 * may see: the requester, moderators and admins see every response, a volunteer only their own (about themselves).
 */
export const OfferingVolunteer = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  volunteer_rating: NullableNumber,
  completed_requests_count: Type.Integer(),
  is_verified: Type.Boolean({ description: 'holds a valid identity check' }),
  checks: CheckKinds,
  member_since: DateTime,
}, { description: 'The volunteer\'s trust signals (docs/privacy.md)' })
export type OfferingVolunteer = Static<typeof OfferingVolunteer>

/** docs/api/conventions.md; `volunteer_name` is "first_name last_name"; `volunteer` beyond 1.0.1 (docs/api/help.md › Volunteer responses, completion and ratings). */
export const VolunteerResponse = Type.Object({
  id: Type.Integer(),
  request_id: Type.Integer(),
  volunteer_id: Type.Integer(),
  volunteer_name: Type.String(),
  status: ResponseStatus,
  message: NullableString(),
  responded_at: DateTime,
  accepted_at: NullableDateTime,
  rejected_at: NullableDateTime,
  volunteer: OfferingVolunteer,
  suitable: Type.Boolean({ description: 'whether the volunteer meets the request\'s needs now (docs/api/visits.md › Needs and matching): a driving check can lapse after the offer' }),
})
export type VolunteerResponse = Static<typeof VolunteerResponse>

/**
 * One of the caller's own responses with what a volunteer needs to recognise its request (beyond
 * 1.0.1): the title they saw when offering and the request's status now.
 */
export const MyResponse = Type.Object({ ...VolunteerResponse.properties, request_title: Type.String(), request_status: RequestStatus })
export type MyResponse = Static<typeof MyResponse>

export const CreateResponseInput = Type.Object({
  message: Type.Optional(NullableString({ maxLength: 2000 })),
})
export type CreateResponseInput = Static<typeof CreateResponseInput>

export const AcceptResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  request_id: Type.Integer(),
  volunteer_id: Type.Integer(),
})
export type AcceptResult = Static<typeof AcceptResult>

export const CompleteInput = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Type.Optional(NullableString({ maxLength: 2000 })),
})
export type CompleteInput = Static<typeof CompleteInput>

export const CompleteResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  rating_id: Type.Integer(),
})
export type CompleteResult = Static<typeof CompleteResult>

export const ResponseParams = Type.Object({ id: Id, response_id: Id })
export const RESPONSE_PARAM_MESSAGES = { ...REQUEST_ID_MESSAGES, response_id: 'invalid response id' }

export const RATING_MESSAGES = { rating: 'rating must be an integer from 1 to 5', 'rating:required': 'rating is required' }

import { Type, type Static } from 'typebox'
import { DateTime, NullableDateTime, NullableId, NullableNumber, NullableString } from '../../http/schemas.js'
import { Availability } from '../../help/availability/availability.schemas.js'
import { OwnConcern } from '../../help/concerns/concerns.schemas.js'
import { Delivery, NotificationSettings } from '../../messaging/deliveries/deliveries.schemas.js'
import { Notification } from '../../messaging/notifications/notifications.schemas.js'
import { PushSubscription } from '../../messaging/push/push.schemas.js'
import { RequestStatus } from '../../help/requests/requests.schemas.js'
import { Series } from '../../regular-help/series/series.schemas.js'
import { Expenses } from '../../help/visits/visits.schemas.js'
import { UserProfile } from '../../accounts/users/users.schemas.js'

/** GET /users/me/export (docs/privacy.md › Erasure): everything the service holds about the caller. */
export const ExportedRequest = Type.Object({
  id: Type.Integer(),
  request_type_id: Type.Integer(),
  request_type_name: Type.String(),
  title: Type.String(),
  description: Type.String(),
  address: Type.String(),
  city: NullableString(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  desired_completion_date: NullableDateTime,
  urgency: Type.String(),
  status: RequestStatus,
  contact_phone: NullableString(),
  contact_notes: NullableString(),
  assigned_volunteer_id: NullableId,
  moderated_at: NullableDateTime,
  moderation_comment: NullableString(),
  created_at: DateTime,
  updated_at: DateTime,
  finished_at: NullableDateTime,
  minimised_at: NullableDateTime,
})

export const ExportedResponse = Type.Object({
  id: Type.Integer(),
  request_id: Type.Integer(),
  request_title: Type.String(),
  status: Type.String(),
  message: NullableString(),
  responded_at: DateTime,
  accepted_at: NullableDateTime,
  rejected_at: NullableDateTime,
  cancelled_at: NullableDateTime,
})

const ratingFields = {
  id: Type.Integer(),
  request_id: Type.Integer(),
  score: Type.Integer(),
  comment: NullableString(),
  created_at: DateTime,
}

/** docs/api/on-behalf.md › Carers: an invitation, the other person by id only. */
const ExportedInvitation = Type.Object({
  id: Type.Integer(),
  user_id: NullableId,
  can: Type.Array(Type.String()),
  status: Type.String(),
  created_at: DateTime,
  decided_at: NullableDateTime,
})

/** docs/api/visit-checks.md: one visit the caller made as a volunteer. */
const ExportedVisit = Type.Object({
  request_id: Type.Integer(),
  checked_in_at: NullableDateTime,
  checked_out_at: NullableDateTime,
  worried_at: NullableDateTime,
  not_started_at: NullableDateTime,
  overdue_at: NullableDateTime,
  escalated_at: NullableDateTime,
  ...Expenses.properties,
  expenses_at: NullableDateTime,
})

/** docs/api/messaging.md › Texts › The inbox: a text the caller sent that the service did not understand. */
const ExportedText = Type.Object({
  id: Type.Integer(),
  received_at: DateTime,
  text: Type.String(),
  request_id: NullableId,
  handled_at: NullableDateTime,
})

export const DataExport = Type.Object({
  exported_at: DateTime,
  profile: Type.Object({
    ...UserProfile.properties,
    latitude: NullableNumber,
    longitude: NullableNumber,
  }, { description: 'The caller\'s own profile, with phone, address and home location' }),
  roles: Type.Array(Type.String()),
  requests: Type.Array(ExportedRequest, { description: 'The caller\'s requests, with contact data and exact points' }),
  responses: Type.Array(ExportedResponse),
  ratings_given: Type.Array(Type.Object({ ...ratingFields, volunteer_id: Type.Integer() })),
  ratings_received: Type.Array(Type.Object({ ...ratingFields, rater_id: Type.Integer() })),
  availability: Type.Union([Availability, Type.Null()], {
    description: 'As GET /users/me/availability returns it; null when the caller never saved one (nothing is held)',
  }),
  notifications: Type.Array(Notification, { description: 'Every notification of the caller, as the inbox returns them (newest first)' }),
  series: Type.Array(Series, { description: 'The caller\'s series (docs/api/schedule.md), as GET /request-series/mine shows them; their occurrences are in `requests`' }),
  concerns: Type.Array(OwnConcern, {
    description: 'The concerns the caller raised, as GET /concerns/mine returns them (newest first, without the moderators\' note); never those about the caller (docs/api/help.md)',
  }),
  access_records: Type.Array(Type.Object({
    kind: Type.Unsafe<'request' | 'profile'>({ type: 'string', enum: ['request', 'profile'] }),
    request_id: NullableId,
    viewer_id: Type.Integer(),
    viewer_role: Type.String(),
    fields: Type.Array(Type.String()),
    at: DateTime,
  }), { description: 'Who was shown the caller\'s contact details (docs/privacy.md › Access records): of her requests, and of her profile; oldest first, viewers by id' }),
  push_subscriptions: Type.Array(PushSubscription, { description: 'The caller\'s devices, as GET /users/me/push-subscriptions shows them (docs/api/messaging.md)' }),
  notification_settings: Type.Union([NotificationSettings, Type.Null()], {
    description: 'The caller\'s choices of channels, types, quiet hours and zone, as GET /users/me/notification-settings shows them; null while the caller has changed nothing (the defaults apply)',
  }),
  deliveries: Type.Array(Delivery, { description: 'Every e-mail and push delivery to the caller, as GET /users/me/deliveries shows them (newest first)' }),
  trusted_people: Type.Array(ExportedInvitation, {
    description: 'The caller\'s invitations to people they trust (docs/api/on-behalf.md › Carers), oldest first; `user_id` the carer\'s account (null while the address has none); no address',
  }),
  acting_for: Type.Array(ExportedInvitation, { description: 'The invitations to the caller to act for someone, any status, oldest first; `user_id` who invited' }),
  visits: Type.Array(ExportedVisit, {
    description: 'The caller\'s visits as a volunteer (docs/api/visit-checks.md), by request: check-in and check-out, the service\'s stamps about the visit, when they checked out worried (a time only), and the minutes and kilometres they recorded',
  }),
  texts: Type.Array(ExportedText, {
    description: 'The texts the caller sent that the service did not understand, kept for coordinators and moderators (docs/api/messaging.md › Texts › The inbox), newest first; when one was dealt with, not by whom',
  }),
})
export type DataExport = Static<typeof DataExport>

export const EraseInput = Type.Object({
  password: Type.Optional(Type.String({ maxLength: 1024, description: 'The caller\'s current password' })),
})
export type EraseInput = Static<typeof EraseInput>

export const ERASED = 'account erased'
export const INVALID_CREDENTIALS = 'invalid credentials'

import { Type, type Static } from 'typebox'
import { DateTime, NullableDateTime, NullableString, TIME_ZONE } from '../../http/schemas.js'
import { NOTIFICATION_TYPES } from '../../events/notifications.js'
import { SMS_TYPES } from '../sms/sms-texts.js'

const NotificationType = Type.Enum(NOTIFICATION_TYPES)
const TYPES_TEXT = `the notification types of docs/api/messaging.md: ${NOTIFICATION_TYPES.join(', ')}`

const ChannelSettings = Type.Object({
  enabled: Type.Boolean(),
  types: Type.Array(NotificationType, { description: `the types this channel carries (${TYPES_TEXT})` }),
})

const QuietHours = Type.Object({
  start: Type.String({ description: 'HH:MM in time_zone' }),
  end: Type.String({ description: 'HH:MM in time_zone; before start: the quiet hours cross midnight' }),
})

export const NotificationSettings = Type.Object({
  email: ChannelSettings,
  push: ChannelSettings,
  sms: Type.Object({
    enabled: Type.Boolean({ description: 'false until the person switches texts on; texts go only to a confirmed mobile number (GET /users/me/phone)' }),
    types: Type.Array(NotificationType, { description: `the types texted (of ${SMS_TYPES.join(', ')})` }),
  }),
  quiet_hours: Type.Union([QuietHours, Type.Null()], { description: 'deliveries due inside wait until the end; null: none' }),
  time_zone: Type.String({ description: 'IANA zone of quiet_hours; the deployment\'s TIME_ZONE until the person chooses one' }),
})
export type NotificationSettings = Static<typeof NotificationSettings>

/** Types and times are checked by the service, so that each wrong one gets its one text (docs/api/messaging.md › Deliveries and e-mail). */
const ChannelInput = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  types: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100, description: TYPES_TEXT })),
})

export const NotificationSettingsInput = Type.Object({
  email: Type.Optional(ChannelInput),
  push: Type.Optional(ChannelInput),
  sms: Type.Optional(ChannelInput),
  quiet_hours: Type.Optional(Type.Union([Type.Object({ start: Type.Unknown(), end: Type.Unknown() }), Type.Null()], { description: '`{"start": "HH:MM", "end": "HH:MM"}`, or null for none' })),
  time_zone: Type.Optional(NullableString({ ...TIME_ZONE, description: 'an IANA time zone as the database spells it (Europe/Berlin); null: the deployment\'s TIME_ZONE' })),
})
export type NotificationSettingsInput = Static<typeof NotificationSettingsInput>

/** Validation texts of PUT /users/me/notification-settings (docs/api/messaging.md › Deliveries and e-mail). */
export const SETTINGS_MESSAGES = {
  'email.types': 'invalid type',
  'push.types': 'invalid type',
  'sms.types': 'invalid type',
  quiet_hours: 'invalid quiet_hours',
  'quiet_hours.start': 'invalid quiet_hours',
  'quiet_hours.end': 'invalid quiet_hours',
  time_zone: 'invalid time_zone',
}

export const Delivery = Type.Object({
  notification_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null for an account e-mail (docs/api/accounts.md › Getting back in), which `account_message` names' }),
  account_message: NullableString({ description: 'sign_in_code, password_reset_code, verify_email_code, email_verified, password_changed; by text verify_phone_code, and sms_stopped, sms_started or sms_help (the answers to STOP, START and HELP), sms_sorry (to a text not understood) or sms_answer (what came of a YES, OK or NO with its code); null for a notification\'s delivery' }),
  channel: Type.Union([Type.Literal('email'), Type.Literal('push'), Type.Literal('sms')]),
  status: Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('delivered'), Type.Literal('undeliverable'), Type.Literal('failed'), Type.Literal('dropped')], {
    description: 'a text moves on from sent to delivered or undeliverable (its receipt\'s stat as last_error) when the gateway reports it',
  }),
  attempts: Type.Integer(),
  last_error: NullableString({ description: 'why the last try did not go (for failed and dropped, and a pending one being retried); never a secret' }),
  sent_at: NullableDateTime,
  created_at: DateTime,
})
export type Delivery = Static<typeof Delivery>

export const Unsubscribed = Type.Object({ message: Type.Literal('unsubscribed') })
export const UnsubscribeQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) })

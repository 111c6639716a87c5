import type { OutgoingDelivery } from '../../src/messaging/deliveries/channel.js'

/** The e-mail test/helpers/mail-writer.ts writes: an account message with a code, so its text is a few kilobytes. */
export const MAIL_WRITER_DELIVERY: OutgoingDelivery = {
  id: 7,
  userId: 1,
  locale: 'en',
  timeZone: 'UTC',
  notification: null,
  account: { message: 'sign_in_code', code: '123456' },
  email: 'whole@example.org',
  subscription: null,
  invitation: null,
  attempt: 1,
}

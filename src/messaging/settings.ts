/**
 * The settings of docs/api/messaging.md (e-mail, Web Push, deliveries, getting back in), spread into config.ts's
 * SETTINGS; kept here so that file stays readable. Each leaf works as config.ts describes.
 */
import { Type } from 'typebox'

export const EMAIL_VERIFICATION_MODES = ['self', 'code'] as const

/** Browser vendors' push services (docs/api/messaging.md › Deliveries and e-mail); `*.` matches any subdomain. */
export const DEFAULT_PUSH_HOSTS = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.notify.windows.com', 'web.push.apple.com']

export const REACH_SETTINGS = {
  publicUrl: Type.Optional(Type.String({
    env: 'PUBLIC_URL',
    pattern: '^https?://[^/\\s?#]+(/[^\\s?#]*)?$',
    must: 'be the app\'s http(s) address without a query, such as https://help.example.org',
    description: 'the app\'s address as people reach it, for links in e-mails; unset: `http://HOST:PORT`. Required when `SMTP_URL` is set',
  })),
  smtpUrl: Type.Optional(Type.String({
    env: 'SMTP_URL',
    pattern: '^smtps?://',
    must: 'start with smtp:// or smtps://',
    secret: true,
    description: '`smtp://user:pass@host:port` or `smtps://...` of the mail server; unset: every e-mail is written as an `.eml` file to `MAIL_DIR` instead',
  })),
  mailDir: Type.Optional(Type.String({
    env: 'MAIL_DIR',
    minLength: 1,
    description: 'folder for unsent e-mails (`.eml` files) when `SMTP_URL` is unset; unset: `DATA_DIR/mail`',
  })),
  smsSmppUrl: Type.Optional(Type.String({
    env: 'SMS_SMPP_URL',
    pattern: '^s?smpp://[^:@/\\s]+:[^@/\\s]*@[^/\\s:]+(:[0-9]{1,5})?/?$',
    must: 'be smpp://system_id:password@host:port or ssmpp://... (TLS)',
    secret: true,
    description: '`smpp://system_id:password@host:port` (or `ssmpp://` over TLS) of the SMS provider\'s SMPP 3.4 gateway; unset: every text is written as a file to `SMS_DIR` instead, and replies are fed in with `npm run sms:receive`. See README › Texts by SMS',
  })),
  smsDir: Type.Optional(Type.String({
    env: 'SMS_DIR',
    minLength: 1,
    description: 'folder for unsent texts (and `incoming/` replies) when `SMS_SMPP_URL` is unset; unset: `DATA_DIR/sms`',
  })),
  smsFrom: Type.Optional(Type.String({
    env: 'SMS_FROM',
    pattern: '^(\\+[1-9][0-9]{6,14}|[A-Za-z0-9]{1,11})$',
    must: 'be a number in E.164 such as +4915112345678, or up to 11 letters and digits',
    description: 'the sender of texts: a number in E.164, or up to 11 letters and digits. Required when `SMS_SMPP_URL` is set',
  })),
  smsDailyLimitPerNumber: Type.Integer({
    env: 'SMS_DAILY_LIMIT_PER_NUMBER',
    minimum: 1,
    maximum: 1000,
    default: 10,
    description: 'most texts one number gets a day (in `TIME_ZONE`), codes included; a text beyond is dropped (`daily limit`)',
  }),
  smsDailyLimit: Type.Integer({
    env: 'SMS_DAILY_LIMIT',
    minimum: 1,
    maximum: 1_000_000,
    default: 500,
    description: 'most texts the whole service sends a day (in `TIME_ZONE`); a text beyond is dropped (`daily limit`), a phone\'s code never',
  }),
  smsHelpText: Type.Optional(Type.String({
    env: 'SMS_HELP_TEXT',
    minLength: 1,
    maxLength: 140,
    description: 'what a `HELP` reply gets back, at most 2 segments; unset: the service\'s name and `PUBLIC_URL`',
  })),
  mailFrom: Type.String({
    env: 'MAIL_FROM',
    default: 'Neighbourly help <no-reply@localhost>',
    minLength: 3,
    maxLength: 300,
    description: 'sender of e-mails',
  }),
  // All three or none (a group); without them push is off, except on the embedded engine, which generates them.
  vapid: Type.Optional(Type.Object({
    publicKey: Type.String({ env: 'VAPID_PUBLIC_KEY', pattern: '^[A-Za-z0-9_-]{87}$', must: 'be a P-256 public key in base64url (87 characters)', description: 'with `VAPID_PRIVATE_KEY` and `VAPID_SUBJECT`: the service\'s Web Push identity. Unset: generated into `DATA_DIR` on the embedded engine; with `DATABASE_URL` push is off' }),
    privateKey: Type.String({ env: 'VAPID_PRIVATE_KEY', pattern: '^[A-Za-z0-9_-]{43}$', must: 'be a P-256 private key in base64url (43 characters)', secret: true, description: 'the private half of `VAPID_PUBLIC_KEY`' }),
    subject: Type.String({ env: 'VAPID_SUBJECT', pattern: '^(mailto:|https://)', must: 'start with mailto: or https://', description: 'how a push service can reach the operator (`mailto:help@example.org`)' }),
  })),
  pushEndpointHosts: Type.Array(Type.String({ pattern: '^(\\*\\.)?[A-Za-z0-9.-]+$' }), {
    env: 'PUSH_ENDPOINT_HOSTS',
    default: DEFAULT_PUSH_HOSTS,
    must: 'be host names like fcm.googleapis.com or *.notify.windows.com',
    description: 'comma-separated host names (any port; `*.` for any subdomain) a push subscription may point at; nothing else is ever contacted',
  }),
  deliveryMaxAttempts: Type.Integer({ env: 'DELIVERY_MAX_ATTEMPTS', minimum: 1, maximum: 20, default: 6, description: 'tries per e-mail or push delivery, with growing waits between them (about an hour from first to last at 6), before it is `failed`' }),
  smsDefaultCountry: Type.String({
    env: 'SMS_DEFAULT_COUNTRY',
    default: 'DE',
    pattern: '^[A-Z]{2}$',
    must: 'be an ISO 3166 alpha-2 country code such as DE',
    description: 'the country of phone numbers written without a `+`, for texts (docs/api/messaging.md › Texts)',
  }),
  emailVerification: Type.Enum(EMAIL_VERIFICATION_MODES, {
    env: 'EMAIL_VERIFICATION',
    default: 'self',
    description: '`code`: an address is confirmed by a code sent to it at registration (docs/api/accounts.md › Getting back in); `self`: interface 1.0.1, `POST /users/me/verify-email` confirms without one',
  }),
}

import type { Database } from '../../db/database.js'
import { NOTIFICATION_TYPES, type NotificationType } from '../../events/notifications.js'
import { isTimeZone } from '../../lib/values.js'
import { badRequest } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import type { Principal } from '../../lib/principal.js'
import type { UnsubscribeTokens } from '../../lib/unsubscribe.js'
import { DEFAULT_SMS_TYPES, SMS_TYPES } from '../sms/sms-texts.js'
import { DEFAULT_EMAIL_TYPES, listDeliveries } from './deliveries.repo.js'
import type { Delivery, NotificationSettings, NotificationSettingsInput } from './deliveries.schemas.js'
import { findSettings, findSettingsForUpdate, isKnownZone, removeEmailType, saveSettings, type SettingsRow } from './notification-settings.repo.js'

const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/
const KNOWN_TYPES = new Set<string>(NOTIFICATION_TYPES)
/** Texts carry only the types that have one (docs/api/messaging.md › Texts). */
const TEXTED_TYPES = new Set<string>(SMS_TYPES)

export const INVALID_TOKEN = 'invalid token'

/** A person's settings, or the defaults (docs/api/messaging.md › Deliveries and e-mail), with time_zone NULL meaning the deployment's TIME_ZONE. */
function withDefaults (row: SettingsRow | undefined): SettingsRow {
  return row ?? {
    email_enabled: true,
    email_types: [...DEFAULT_EMAIL_TYPES],
    push_enabled: true,
    push_types: [...NOTIFICATION_TYPES],
    sms_enabled: false,
    sms_types: [...DEFAULT_SMS_TYPES],
    quiet_start: null,
    quiet_end: null,
    time_zone: null,
  }
}

/** The given types, checked and in the order of the notification types without repeats; 400 'invalid type' for anything else. */
function checkedTypes (given: unknown[], known: ReadonlySet<string> = KNOWN_TYPES): NotificationType[] {
  for (const type of given) if (typeof type !== 'string' || !known.has(type)) throw badRequest('invalid type')
  return NOTIFICATION_TYPES.filter((type) => given.includes(type))
}

/** docs/api/messaging.md › Deliveries and e-mail: the person's channels, types and quiet hours; their deliveries; one-click unsubscribe. */
export class DeliveriesService {
  constructor (
    private readonly db: Database,
    private readonly settings: { timeZone: string, unsubscribe: UnsubscribeTokens }
  ) {}

  async notificationSettings (user: Principal): Promise<NotificationSettings> {
    return this.#shown(withDefaults(await findSettings(this.db, user.id)))
  }

  /** Every field optional: what is given replaces what was, the rest stays. */
  async updateNotificationSettings (user: Principal, input: NotificationSettingsInput): Promise<NotificationSettings> {
    const emailTypes = input.email?.types !== undefined ? checkedTypes(input.email.types) : undefined
    const pushTypes = input.push?.types !== undefined ? checkedTypes(input.push.types) : undefined
    const smsTypes = input.sms?.types !== undefined ? checkedTypes(input.sms.types, TEXTED_TYPES) : undefined
    const quiet = input.quiet_hours
    if (quiet !== undefined && quiet !== null && (typeof quiet.start !== 'string' || typeof quiet.end !== 'string' || !TIME.test(quiet.start) || !TIME.test(quiet.end))) {
      throw badRequest('invalid quiet_hours')
    }
    const zone = input.time_zone
    // Both the runtime and the database must know it: the database turns quiet hours into instants.
    if (typeof zone === 'string' && (!isTimeZone(zone) || !await isKnownZone(this.db, zone))) throw badRequest('invalid time_zone')
    const saved = await this.db.transaction(async (tx) => {
      const current = withDefaults(await findSettingsForUpdate(tx, user.id))
      const next: SettingsRow = {
        email_enabled: input.email?.enabled ?? current.email_enabled,
        email_types: emailTypes ?? current.email_types,
        push_enabled: input.push?.enabled ?? current.push_enabled,
        push_types: pushTypes ?? current.push_types,
        sms_enabled: input.sms?.enabled ?? current.sms_enabled,
        sms_types: smsTypes ?? current.sms_types,
        quiet_start: quiet === undefined ? current.quiet_start : (quiet?.start as string | undefined) ?? null,
        quiet_end: quiet === undefined ? current.quiet_end : (quiet?.end as string | undefined) ?? null,
        time_zone: zone === undefined ? current.time_zone : zone,
      }
      await saveSettings(tx, user.id, next)
      return next
    })
    return this.#shown(saved)
  }

  async deliveries (user: Principal, page: Page): Promise<Delivery[]> {
    return await listDeliveries(this.db, user.id, page)
  }

  /** RFC 8058 one-click: no sign-in, the signed token says whose e-mails of which type to stop. */
  async unsubscribe (token: string | undefined): Promise<void> {
    const claim = token === undefined ? undefined : this.settings.unsubscribe.verify(token)
    if (claim === undefined || !KNOWN_TYPES.has(claim.type)) throw badRequest(INVALID_TOKEN)
    await removeEmailType(this.db, claim.userId, claim.type as NotificationType, { emailTypes: DEFAULT_EMAIL_TYPES, pushTypes: NOTIFICATION_TYPES })
  }

  #shown (row: SettingsRow): NotificationSettings {
    return {
      email: { enabled: row.email_enabled, types: row.email_types },
      push: { enabled: row.push_enabled, types: row.push_types },
      sms: { enabled: row.sms_enabled, types: row.sms_types },
      quiet_hours: row.quiet_start !== null && row.quiet_end !== null ? { start: row.quiet_start, end: row.quiet_end } : null,
      time_zone: row.time_zone ?? this.settings.timeZone,
    }
  }
}

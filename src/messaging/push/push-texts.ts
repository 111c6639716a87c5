import type { NotificationType } from '../../events/notifications.js'
import { whenText } from '../../lib/when.js'

/**
 * The short text of a push (docs/api/messaging.md › Deliveries and e-mail: `body`), by notification type, in the recipient's language.
 * A phone shows it on the lock screen, so it names no person and carries no contact data; the request's
 * title is the push's title, and the app's page has the rest.
 */

export type Locale = 'en' | 'de'

/** `when`: the notification's `window_start` in words, in the recipient's language and zone (docs/web/schedule.md). */
type Texts = Record<NotificationType, (data: Record<string, unknown>, when: string | undefined) => string>

const km = (meters: unknown, locale: Locale): string | undefined => {
  if (typeof meters !== 'number' || !Number.isFinite(meters)) return undefined
  return (meters / 1000).toLocaleString(locale, { maximumFractionDigits: 1 }) + ' km'
}

const EN: Texts = {
  request_alert: (data) => `Someone nearby needs help${km(data.distance_meters, 'en') === undefined ? '' : ` (${km(data.distance_meters, 'en')!} away)`}. Can you help?`,
  request_alert_closed: () => 'This request no longer needs you. Thank you for being ready.',
  request_approved: () => 'Your request was approved and volunteers nearby are being told.',
  request_rejected: () => 'Your request was not approved. Open it to see why.',
  response_received: () => 'A volunteer offered to help.',
  response_withdrawn: (data) => data.was_accepted === true ? 'Your volunteer can no longer help; we are looking for another.' : 'A volunteer withdrew their offer.',
  response_accepted: () => 'Your offer was accepted. Open the request for the details.',
  response_rejected: () => 'Thank you: someone else is helping with this request.',
  request_cancelled: () => 'This request was cancelled.',
  request_completed: () => 'The request is done. Thank you for helping!',
  check_expiring: () => 'One of your checks runs out soon.',
  concern_raised: (data) => data.urgent === true ? 'An urgent concern was raised.' : 'A concern was raised.',
  concern_resolved: () => 'The concern you raised has been looked at.',
  series_invitation: (_data, when) => `You helped last time; you are asked first${when === undefined ? '' : ` for ${when}`}.`,
  confirm_needed: (_data, when) => `Please confirm you will be there${when === undefined ? '' : ` on ${when}`}.`,
  volunteer_confirmed: (_data, when) => `Your volunteer confirmed${when === undefined ? '' : ` for ${when}`}.`,
  confirmation_missed: () => 'Not confirmed in time: the request is open again and volunteers are asked urgently.',
  reminder: (_data, when) => `Reminder: ${when ?? 'soon'}.`,
  request_expired: () => 'Nobody could help in time. You can ask again with one press.',
  still_needed: () => 'Is this still needed? Open it to say so.',
  please_complete: () => 'Was it done? Please mark it as done.',
  trust_invitation: (data) => `${typeof data.from_name === 'string' ? data.from_name : 'Someone'} asks you to help with their requests.`,
  request_created_for_you: (data) => `${typeof data.by_name === 'string' ? data.by_name : 'Someone you trust'} asked for help for you.`,
  visit_not_started: (data) => `Has ${typeof data.volunteer_name === 'string' ? data.volunteer_name : 'your helper'} arrived?`,
  visit_overdue: () => 'Are you all right? Check out when you have left.',
  client_says_not_needed: () => 'Your client replied NO by text: please call to check whether it is still needed.',
}

const DE: Texts = {
  request_alert: (data) => `Jemand in der Nähe braucht Hilfe${km(data.distance_meters, 'de') === undefined ? '' : ` (${km(data.distance_meters, 'de')!} entfernt)`}. Können Sie helfen?`,
  request_alert_closed: () => 'Diese Anfrage braucht Sie nicht mehr. Danke für Ihre Bereitschaft.',
  request_approved: () => 'Ihre Anfrage wurde freigegeben; Freiwillige in der Nähe werden benachrichtigt.',
  request_rejected: () => 'Ihre Anfrage wurde nicht freigegeben. Öffnen Sie sie, um den Grund zu lesen.',
  response_received: () => 'Eine Freiwillige oder ein Freiwilliger hat Hilfe angeboten.',
  response_withdrawn: (data) => data.was_accepted === true ? 'Ihre Hilfe kann nicht mehr kommen; wir suchen jemand anderen.' : 'Ein Hilfsangebot wurde zurückgezogen.',
  response_accepted: () => 'Ihr Angebot wurde angenommen. Die Einzelheiten stehen in der Anfrage.',
  response_rejected: () => 'Danke: Jemand anderes hilft bei dieser Anfrage.',
  request_cancelled: () => 'Diese Anfrage wurde abgesagt.',
  request_completed: () => 'Die Anfrage ist erledigt. Danke für Ihre Hilfe!',
  check_expiring: () => 'Eine Ihrer Prüfungen läuft bald ab.',
  concern_raised: (data) => data.urgent === true ? 'Eine dringende Meldung ist eingegangen.' : 'Eine Meldung ist eingegangen.',
  concern_resolved: () => 'Ihre Meldung wurde bearbeitet.',
  series_invitation: (_data, when) => `Sie haben letztes Mal geholfen und werden zuerst gefragt${when === undefined ? '' : ` (${when})`}.`,
  confirm_needed: (_data, when) => `Bitte bestätigen Sie, dass Sie kommen${when === undefined ? '' : ` (${when})`}.`,
  volunteer_confirmed: (_data, when) => `Ihre Hilfe hat bestätigt${when === undefined ? '' : ` (${when})`}.`,
  confirmation_missed: () => 'Nicht rechtzeitig bestätigt: Die Anfrage ist wieder offen, Freiwillige werden dringend gefragt.',
  reminder: (_data, when) => `Erinnerung: ${when ?? 'bald'}.`,
  request_expired: () => 'Niemand konnte rechtzeitig helfen. Sie können mit einem Klick erneut fragen.',
  still_needed: () => 'Wird das noch gebraucht? Öffnen Sie die Anfrage, um es zu sagen.',
  please_complete: () => 'Ist es erledigt? Bitte als erledigt markieren.',
  trust_invitation: (data) => `${typeof data.from_name === 'string' ? data.from_name : 'Jemand'} bittet Sie, bei den eigenen Anfragen zu helfen.`,
  request_created_for_you: (data) => `${typeof data.by_name === 'string' ? data.by_name : 'Eine Vertrauensperson'} hat für Sie um Hilfe gebeten.`,
  visit_not_started: (data) => `Ist ${typeof data.volunteer_name === 'string' ? data.volunteer_name : 'Ihre Hilfe'} angekommen?`,
  visit_overdue: () => 'Ist alles in Ordnung? Bitte melden Sie sich ab, wenn Sie gegangen sind.',
  client_says_not_needed: () => 'Per SMS kam NEIN: Bitte rufen Sie an, ob die Hilfe noch gebraucht wird.',
}

/** The push's title when the notification names no request (or its title is gone). */
const APP_NAME: Record<Locale, string> = { en: 'Neighbourly help', de: 'Nachbarschaftshilfe' }

export function pushText (locale: Locale, type: NotificationType, data: Record<string, unknown>, timeZone: string): string {
  return (locale === 'de' ? DE : EN)[type](data, whenText(data.window_start, locale, timeZone))
}

export function fallbackTitle (locale: Locale): string {
  return APP_NAME[locale]
}

import type { NotificationType, ReplyAnswer, ReplyOutcome } from '../../events/notifications.js'
import { MAX_SMS_SEGMENTS, smsShape } from '../../lib/sms-segments.js'
import type { CodeAnswer } from './reply-codes.repo.js'

/**
 * The words of texts (docs/api/messaging.md › Texts), in the recipient's language. A text names the request by
 * its title, cut to fit, and its day and time in words; never a contact detail, an address or anyone's code
 * but the recipient's own. Every text fits in MAX_SMS_SEGMENTS: the title is what gives way.
 */

export type Locale = 'en' | 'de'

/** The notification types that can go by text; the others (the app's bookkeeping) stay in the app, e-mail and push. */
export const SMS_TYPES = [
  'request_alert', 'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'response_accepted',
  'request_cancelled', 'request_completed', 'series_invitation', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed',
  'reminder', 'request_expired', 'still_needed',
] as const satisfies readonly NotificationType[]
export type SmsType = typeof SMS_TYPES[number]

/**
 * The types texted once a person switches texts on and has chosen none (and the column default of
 * migrations/0033_texts.sql): what needs an answer or changes a plan.
 */
export const DEFAULT_SMS_TYPES: readonly SmsType[] = [
  'request_alert', 'response_accepted', 'request_cancelled', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed', 'reminder', 'still_needed',
]

export function isSmsType (type: string): type is SmsType {
  return (SMS_TYPES as readonly string[]).includes(type)
}

/** What a text is made from: the title in quotes (already cut), the day and time in words, the type's data. */
interface Values { title: string, when: string | undefined, data: Record<string, unknown> }
type Texts = Record<SmsType, (values: Values) => string>

const km = (meters: unknown, locale: Locale): string | undefined => {
  if (typeof meters !== 'number' || !Number.isFinite(meters)) return undefined
  const value = (Math.round(meters / 100) / 10).toFixed(1)
  return `${locale === 'de' ? value.replace('.', ',') : value} km`
}
const on = (when: string | undefined, word: string) => when === undefined ? '' : ` ${word} ${when}`

const EN: Texts = {
  request_alert: ({ title, when, data }) => `Help needed nearby${km(data.distance_meters, 'en') === undefined ? '' : ` (${km(data.distance_meters, 'en')!} away)`}: ${title}${on(when, 'on')}. Can you help?`,
  request_approved: ({ title }) => `Your request ${title} is published; volunteers nearby are being told.`,
  request_rejected: ({ title }) => `Your request ${title} was not approved. Sign in to see why.`,
  response_received: ({ title }) => `A volunteer offered to help with ${title}.`,
  response_withdrawn: ({ title, data }) => data.was_accepted === true
    ? `Your volunteer can no longer help with ${title}; we are looking for another.`
    : `A volunteer withdrew their offer for ${title}.`,
  response_accepted: ({ title, when }) => `Your offer for ${title}${on(when, 'on')} was accepted. Thank you!`,
  request_cancelled: ({ title, when }) => `${title}${on(when, 'on')} was cancelled.`,
  request_completed: ({ title }) => `${title} is done. Thank you!`,
  series_invitation: ({ title, when }) => `You helped last time. Can you help with ${title}${on(when, 'on')}?`,
  confirm_needed: ({ title, when }) => `Please confirm you will help with ${title}${on(when, 'on')}.`,
  volunteer_confirmed: ({ title, when }) => `Your volunteer confirmed ${title}${on(when, 'for')}.`,
  confirmation_missed: ({ title }) => `${title} was not confirmed in time; we are asking other volunteers.`,
  reminder: ({ title, when }) => `Reminder: ${title}${on(when, 'on')}.`,
  request_expired: ({ title }) => `Nobody could help with ${title} in time. You can ask again.`,
  still_needed: ({ title, when }) => `Is ${title}${on(when, 'on')} still needed?`,
}

const DE: Texts = {
  request_alert: ({ title, when, data }) => `Hilfe in der Nähe gesucht${km(data.distance_meters, 'de') === undefined ? '' : ` (${km(data.distance_meters, 'de')!} entfernt)`}: ${title}${on(when, 'am')}. Können Sie helfen?`,
  request_approved: ({ title }) => `Ihre Anfrage ${title} ist veröffentlicht; Freiwillige in der Nähe werden benachrichtigt.`,
  request_rejected: ({ title }) => `Ihre Anfrage ${title} wurde nicht freigegeben. Melden Sie sich an, um den Grund zu lesen.`,
  response_received: ({ title }) => `Jemand hat Hilfe angeboten bei ${title}.`,
  response_withdrawn: ({ title, data }) => data.was_accepted === true
    ? `Ihre Hilfe kann bei ${title} nicht mehr kommen; wir suchen jemand anderen.`
    : `Ein Hilfsangebot für ${title} wurde zurückgezogen.`,
  response_accepted: ({ title, when }) => `Ihr Angebot für ${title}${on(when, 'am')} wurde angenommen. Danke!`,
  request_cancelled: ({ title, when }) => `${title}${on(when, 'am')} wurde abgesagt.`,
  request_completed: ({ title }) => `${title} ist erledigt. Danke!`,
  series_invitation: ({ title, when }) => `Sie haben letztes Mal geholfen. Können Sie bei ${title}${on(when, 'am')} helfen?`,
  confirm_needed: ({ title, when }) => `Bitte bestätigen Sie, dass Sie bei ${title}${on(when, 'am')} helfen.`,
  volunteer_confirmed: ({ title, when }) => `Ihre Hilfe hat ${title}${on(when, 'am')} bestätigt.`,
  confirmation_missed: ({ title }) => `${title} wurde nicht rechtzeitig bestätigt; wir fragen andere Freiwillige.`,
  reminder: ({ title, when }) => `Erinnerung: ${title}${on(when, 'am')}.`,
  request_expired: ({ title }) => `Niemand konnte rechtzeitig bei ${title} helfen. Sie können erneut fragen.`,
  still_needed: ({ title, when }) => `Wird ${title}${on(when, 'am')} noch gebraucht?`,
}

const PHONE_CODE: Record<Locale, (code: string) => string> = {
  en: (code) => `Your code to confirm this phone: ${code}. It is valid for 30 minutes. Do not share it.`,
  de: (code) => `Ihr Code zur Bestätigung dieses Telefons: ${code}. Er gilt 30 Minuten. Geben Sie ihn nicht weiter.`,
}

/** Stands in for a title when a notification names no request, or its title is gone. */
const UNTITLED: Record<Locale, string> = { en: 'your request', de: 'Ihre Anfrage' }

/**
 * `render(title)` with the longest form of `title` that keeps the text within MAX_SMS_SEGMENTS: cut at a
 * character, with "..." (in the GSM alphabet, unlike "…", which would switch the whole text to UCS-2), in quotes
 * unless `quoted` is false. Spaces that are not in the GSM alphabet (a formatter's narrow no-break space) become plain ones.
 */
export function fitted (render: (title: string) => string, title: string, quoted = true): string {
  const plain = (text: string) => text.replace(/[\u00a0\u2009\u202f]/g, ' ')
  const quote = (words: string) => quoted ? `"${words}"` : words
  const characters = [...plain(title)]
  let text = plain(render(quote(title)))
  for (let keep = characters.length - 1; smsShape(text).segments > MAX_SMS_SEGMENTS && keep >= 0; keep -= 1) {
    text = plain(render(quote(`${characters.slice(0, keep).join('').trimEnd()}...`)))
  }
  return text
}

/** What a text that takes an answer adds at its end: the keyword and the code (docs/api/messaging.md › Texts › Replies). */
const REPLY_WITH: Record<Locale, Record<CodeAnswer, (code: string) => string>> = {
  en: {
    yes: (code) => ` Reply YES ${code} to offer help.`,
    ok: (code) => ` Reply OK ${code} to confirm.`,
    no: (code) => ` Reply NO ${code} if it is no longer needed.`,
  },
  de: {
    yes: (code) => ` Antworten Sie JA ${code}, um Hilfe anzubieten.`,
    ok: (code) => ` Antworten Sie OK ${code} zur Bestätigung.`,
    no: (code) => ` Antworten Sie NEIN ${code}, wenn es nicht mehr gebraucht wird.`,
  },
}

/**
 * The types whose text takes an answer, and which (REPLY_WITH); NO only to the request's own requester or client
 * (reply-codes.repo.ts). A client's response_accepted takes NO too: it tells the client, not a volunteer.
 */
export const CLIENT_ANSWER_OF: Partial<Record<SmsType, CodeAnswer>> = {
  response_accepted: 'no',
  reminder: 'no',
  volunteer_confirmed: 'no',
  confirmation_missed: 'no',
  still_needed: 'no',
}

/** A person's own texts: YES to an alert, OK to a request to confirm, NO to her texts about her request. */
export const ANSWER_OF: Partial<Record<SmsType, CodeAnswer>> = {
  request_alert: 'yes',
  confirm_needed: 'ok',
  reminder: 'no',
  volunteer_confirmed: 'no',
  confirmation_missed: 'no',
  still_needed: 'no',
}

/** A notification's text, or undefined for a type that never goes by text; `reply`: its code and what it answers, at the end. */
export function notificationText (
  locale: Locale, type: NotificationType, values: { title: string | null, when: string | undefined, data: Record<string, unknown> },
  reply?: { answer: CodeAnswer, code: string }
): string | undefined {
  if (!isSmsType(type)) return undefined
  const words = (locale === 'de' ? DE : EN)[type]
  const ending = reply === undefined ? '' : REPLY_WITH[locale][reply.answer](reply.code)
  if (values.title === null) return words({ ...values, title: UNTITLED[locale] }) + ending
  return fitted((title) => words({ ...values, title }) + ending, values.title)
}

/**
 * docs/api/on-behalf.md › Texts to a client: what a coordinator's client is texted, with their consent, in their own
 * words: the client asked (through a coordinator) and is helped, so "X will help you", never "your offer".
 */
export const CLIENT_TEXT_TYPES = [
  'response_accepted', 'request_cancelled', 'reminder', 'volunteer_confirmed', 'confirmation_missed', 'still_needed',
] as const satisfies readonly SmsType[]
export type ClientTextType = typeof CLIENT_TEXT_TYPES[number]

/** The helper's first name, or who stands in for it; the title gives way to it within 2 segments. */
interface ClientValues extends Values { helper: string }
type ClientTexts = Record<ClientTextType, (values: ClientValues) => string>

const CLIENT_EN: ClientTexts = {
  response_accepted: ({ title, when, helper }) => `${helper} will help you with ${title}${on(when, 'on')}.`,
  request_cancelled: ({ title, when }) => `Your request ${title}${on(when, 'on')} was cancelled.`,
  reminder: ({ title, when }) => `Reminder: your volunteer will help you with ${title}${on(when, 'on')}.`,
  volunteer_confirmed: ({ title, when }) => `Your volunteer confirmed they will help with ${title}${on(when, 'on')}.`,
  confirmation_missed: ({ title, when }) => `Your volunteer did not confirm ${title}${on(when, 'on')}; we are looking for someone else.`,
  still_needed: ({ title, when }) => `Is ${title}${on(when, 'on')} still needed? Please let us know.`,
}

const CLIENT_DE: ClientTexts = {
  response_accepted: ({ title, when, helper }) => `${helper} hilft Ihnen bei ${title}${on(when, 'am')}.`,
  request_cancelled: ({ title, when }) => `Ihre Anfrage ${title}${on(when, 'am')} wurde abgesagt.`,
  reminder: ({ title, when }) => `Erinnerung: Sie bekommen Hilfe bei ${title}${on(when, 'am')}.`,
  volunteer_confirmed: ({ title, when }) => `Ihre Hilfe bei ${title}${on(when, 'am')} ist bestätigt.`,
  confirmation_missed: ({ title, when }) => `Ihre Hilfe hat ${title}${on(when, 'am')} nicht bestätigt; wir suchen jemand anderen.`,
  still_needed: ({ title, when }) => `Wird ${title}${on(when, 'am')} noch gebraucht? Bitte sagen Sie uns Bescheid.`,
}

/** Who helps when the volunteer's name is not known (their account erased since). */
const SOMEONE: Record<Locale, string> = { en: 'A volunteer', de: 'Jemand' }
/** A first name longer than this is cut with "...", so the title keeps room within 2 segments even in UCS-2. */
export const MAX_HELPER_NAME = 30

export function isClientTextType (type: string): type is ClientTextType {
  return (CLIENT_TEXT_TYPES as readonly string[]).includes(type)
}

/** A client's text (docs/api/on-behalf.md › Texts to a client), or undefined for a type a client is never texted. `helper`: the volunteer's first name. */
export function clientText (
  locale: Locale, type: NotificationType, values: { title: string | null, when: string | undefined, data: Record<string, unknown>, helper: string | null },
  reply?: { answer: CodeAnswer, code: string }
): string | undefined {
  if (!isClientTextType(type)) return undefined
  const ending = reply === undefined ? '' : REPLY_WITH[locale][reply.answer](reply.code)
  const words = (given: ClientValues) => (locale === 'de' ? CLIENT_DE : CLIENT_EN)[type](given) + ending
  const name = [...(values.helper?.trim() ?? '')]
  const helper = name.length === 0 ? SOMEONE[locale] : name.length > MAX_HELPER_NAME ? `${name.slice(0, MAX_HELPER_NAME - 3).join('').trimEnd()}...` : name.join('')
  const given = { ...values, helper }
  // Through fitted even without a title, for the plain spaces it makes.
  if (values.title === null) return fitted(() => words({ ...given, title: UNTITLED[locale] }), '', false)
  return fitted((title) => words({ ...given, title }), values.title)
}

/** The text carrying the code that confirms a phone (docs/api/accounts.md's code rules): the recipient's own. */
export function phoneCodeText (locale: Locale, code: string): string {
  return PHONE_CODE[locale](code)
}

/**
 * The answers to STOP, START and HELP (docs/api/messaging.md › Texts › Replies): the last text after STOP says how
 * to undo it; HELP gets SMS_HELP_TEXT when it is set, else the service's name and address. A text not understood
 * (› The inbox) gets the same few words whatever the service is called.
 */
const ANSWER: Record<Locale, Record<ReplyAnswer, (help: { name: string, url: string }) => string>> = {
  en: {
    sms_stopped: ({ name }) => `You will get no more texts from ${name}. Reply START to get them again.`,
    sms_started: ({ name }) => `Texts from ${name} are on again. Reply STOP to stop them, HELP for help.`,
    sms_help: ({ name, url }) => `${name}: ${url} Reply STOP to stop texts.`,
    sms_sorry: () => 'Sorry, we did not understand. Reply HELP for help.',
  },
  de: {
    sms_stopped: ({ name }) => `Sie erhalten keine SMS mehr von ${name}. Antworten Sie START, um sie wieder zu erhalten.`,
    sms_started: ({ name }) => `SMS von ${name} sind wieder an. Antworten Sie STOPP, um sie zu beenden, HILFE für Hilfe.`,
    sms_help: ({ name, url }) => `${name}: ${url} Antworten Sie STOPP, um keine SMS mehr zu erhalten.`,
    sms_sorry: () => 'Entschuldigung, wir haben Sie nicht verstanden. Antworten Sie HILFE für Hilfe.',
  },
}

/** The answers to YES, OK and NO with their code: what came of it, about the request named by its title. */
const OUTCOME: Record<Locale, Record<ReplyOutcome, (title: string) => string>> = {
  en: {
    offered: (title) => `Thank you! Your offer to help with ${title} is sent. We will text you when it is accepted.`,
    confirmed: (title) => `Thank you! You have confirmed ${title}.`,
    cancelled: (title) => `${title} is cancelled. Thank you for letting us know.`,
    not_open: (title) => `${title} is no longer open: someone else is already helping, or it has ended.`,
    already_offered: (title) => `You have already offered to help with ${title}.`,
    checks: (title) => `Your offer for ${title} could not be made: a check you need is missing or has expired. Please ask the coordinators.`,
    not_assigned: (title) => `You are not the volunteer for ${title} now, so there is nothing to confirm.`,
    cannot: (title) => `That could not be done for ${title}. Please sign in to the app to see why.`,
  },
  de: {
    offered: (title) => `Danke! Ihr Hilfsangebot für ${title} ist gesendet. Wir schreiben Ihnen, wenn es angenommen wird.`,
    confirmed: (title) => `Danke! Sie haben ${title} bestätigt.`,
    cancelled: (title) => `${title} ist abgesagt. Danke für Ihre Nachricht.`,
    not_open: (title) => `${title} ist nicht mehr offen: Jemand hilft schon, oder die Anfrage ist beendet.`,
    already_offered: (title) => `Sie haben bei ${title} schon Hilfe angeboten.`,
    checks: (title) => `Ihr Angebot für ${title} ging nicht: Eine nötige Prüfung fehlt oder ist abgelaufen. Bitte fragen Sie die Koordination.`,
    not_assigned: (title) => `Sie sind bei ${title} nicht mehr eingeteilt; es gibt nichts zu bestätigen.`,
    cannot: (title) => `Das ging bei ${title} nicht. Bitte melden Sie sich in der App an, um den Grund zu sehen.`,
  },
}

/** What came of a reply with a code, in words; the request's title gives way to fit. */
export function replyOutcomeText (locale: Locale, outcome: ReplyOutcome, title: string | null): string {
  const words = OUTCOME[locale][outcome]
  return title === null ? words(UNTITLED[locale]) : fitted(words, title)
}

/** The service's name is what gives way when an answer would pass MAX_SMS_SEGMENTS (MAIL_FROM's name has no limit of its own). */
export function replyAnswerText (locale: Locale, answer: ReplyAnswer, help: { name: string, url: string, text: string | undefined }): string {
  if (answer === 'sms_help' && help.text !== undefined) return help.text
  return fitted((name) => ANSWER[locale][answer]({ name, url: help.url }), help.name, false)
}

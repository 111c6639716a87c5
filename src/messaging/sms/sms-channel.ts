import type { Database } from '../../db/database.js'
import { CODE_ANSWER_MESSAGE, PHONE_CODE_MESSAGE, REPLY_ANSWERS, type ReplyAnswer } from '../../events/notifications.js'
import type { Clock } from '../../lib/clock.js'
import { parsePhone } from '../../lib/phone-numbers.js'
import { MAX_SMS_SEGMENTS, smsShape } from '../../lib/sms-segments.js'
import { whenText } from '../../lib/when.js'
import type { Channel, OutgoingDelivery, SendOutcome } from '../deliveries/channel.js'
import type { IncomingText, SmsGateway } from './gateway.js'
import type { Job } from '../../jobs/job.js'
import { recordReceipt, recordSubmitted } from '../deliveries/text-receipts.repo.js'
import { giveBack, isStopped, takeBudget, type Budget } from './sms.repo.js'
import type { ReplyCodes } from '../../lib/reply-codes.js'
import { codeSaltOf, insertCode, isAnswerable, type CodeAnswer } from './reply-codes.repo.js'
import { ANSWER_OF, CLIENT_ANSWER_OF, clientText, isSmsType, notificationText, phoneCodeText, replyAnswerText, replyOutcomeText } from './sms-texts.js'

export interface SmsChannelOptions {
  db: Database
  /** Opens the gateway (smsGatewayFor): called once, when the background work starts (smsGatewayJob). */
  openGateway: () => SmsGateway
  clock: Clock
  /** SMS_DEFAULT_COUNTRY: the country of numbers written without a `+`. */
  defaultCountry: string
  /** SMS_DAILY_LIMIT_PER_NUMBER, SMS_DAILY_LIMIT, counted in TIME_ZONE days. */
  budget: Budget
  /** What the answer to HELP says: SMS_HELP_TEXT, else the service's name (MAIL_FROM's) and PUBLIC_URL. */
  help: { name: string, url: string, text: string | undefined }
  /** The codes of texts that take an answer, under a key from the signing secret. */
  codes: ReplyCodes
}

/** How long a text waits for the gateway's first bind at start (a bind times out after 10 s). */
const OPEN_WAIT_MS = 15_000

/** Salts a code may take before a text goes without one: two live codes of a number rarely meet even once. */
const MAX_SALTS = 20

/** Reasons a text is dropped, shown to its owner as last_error: they name the rule, never the number. */
export const NOT_MOBILE = 'not a mobile number'
export const NOT_CONFIRMED = 'the phone number is not confirmed'
export const STOPPED = 'texts are stopped for this number'
export const DAILY_LIMIT = 'daily limit'

/**
 * The sms channel (docs/api/messaging.md › Texts): a delivery's text to the recipient's phone, through the gateway
 * (SMPP, or files in SMS_DIR). Checked at the moment of sending, since a number may have changed, been
 * stopped or used up its day since the row was written: a mobile number, confirmed (except for the code
 * that confirms it), not stopped, within both budgets. Called by the sending loop only, outside any
 * transaction; the gateway's id is written at once so that the receipt finds the delivery.
 */
export class SmsChannel implements Channel {
  #gateway: SmsGateway | undefined
  #closed = false
  #opened: () => void = () => {}
  /** Resolves when the gateway job has opened the gateway: the sending loop's first claim may come just before. */
  readonly #open = new Promise<void>((resolve) => { this.#opened = resolve })

  constructor (private readonly options: SmsChannelOptions) {}

  /**
   * Opens the gateway (an SMPP bind, or the SMS_DIR folder) and starts taking its receipts and the texts people send
   * (`replies`, which act on each once: replies.ts). Only the job
   * runner calls it (smsGatewayJob), so no gateway is opened by building the app or on a request's path.
   */
  start (replies: (text: IncomingText) => Promise<void>): void {
    if (this.#gateway !== undefined || this.#closed) return
    const { db, clock } = this.options
    this.#gateway = this.options.openGateway()
    this.#opened()
    this.#gateway.listen({
      receipt: async (receipt) => {
        // Only a final word moves a delivery; ENROUTE, ACCEPTD and the like are on the way.
        if (!FINAL_STATS.has(receipt.stat)) return
        await recordReceipt(db, receipt.messageId, receipt.delivered, receipt.stat, clock.now())
      },
      incoming: replies,
    })
  }

  async send (delivery: OutgoingDelivery): Promise<SendOutcome> {
    const phone = delivery.phone ?? null
    const isCode = delivery.account?.message === PHONE_CODE_MESSAGE
    // An answer to a reply goes like a code: the service-wide budget never drops it, and STOP's last text goes to the stopped number.
    const answer = replyAnswerOf(delivery)
    const parsed = phone === null ? undefined : parsePhone(phone.number, this.options.defaultCountry)
    if (parsed?.e164 == null || !parsed.mobile) return { outcome: 'gone', reason: NOT_MOBILE }
    if (!isCode && !phone!.confirmed) return { outcome: 'gone', reason: NOT_CONFIRMED }
    const isAnswer = answer !== undefined || delivery.account?.message === CODE_ANSWER_MESSAGE
    const reply = await this.#replyCode(delivery, parsed.e164)
    const text = textOf(delivery, this.options.help, reply)
    if (text === undefined) return { outcome: 'gone', reason: 'no text for this message' }
    const shape = smsShape(text)
    if (shape.segments > MAX_SMS_SEGMENTS) return { outcome: 'gone', reason: 'text too long' }
    const gateway = await this.#started()
    if (gateway === undefined) return { outcome: 'retry', reason: 'the gateway is not started yet' }
    const { db, clock } = this.options
    if (answer !== 'sms_stopped' && await isStopped(db, parsed.e164)) return { outcome: 'gone', reason: STOPPED }
    const taken = await takeBudget(db, parsed.e164, this.options.budget, clock.now(), isCode || isAnswer)
    if (taken === undefined) return { outcome: 'gone', reason: DAILY_LIMIT }
    const outcome = await gateway.submit({ to: parsed.e164, text })
    if (outcome.outcome !== 'sent') {
      // Not sent now: the text is counted again when it goes.
      await giveBack(db, taken).catch(() => {})
      return outcome
    }
    // Should this write fail, the text is still out: its receipt then finds no delivery and changes nothing.
    await recordSubmitted(db, delivery.id, outcome.messageId, shape.segments).catch(() => {})
    return { outcome: 'sent' }
  }

  /**
   * The code a notification's text carries when it takes an answer (docs/api/messaging.md › Texts › Replies): the one
   * made for this delivery before, or a new one while what it answers is still open; undefined for none.
   */
  async #replyCode (delivery: OutgoingDelivery, e164: string): Promise<{ answer: CodeAnswer, code: string } | undefined> {
    const notification = delivery.notification
    if (notification === null || notification.requestId === null || !isSmsType(notification.type)) return undefined
    const client = delivery.client?.id ?? null
    const answer = (client === null ? ANSWER_OF : CLIENT_ANSWER_OF)[notification.type]
    if (answer === undefined) return undefined
    const { db, clock, codes } = this.options
    const salt = await codeSaltOf(db, delivery.id)
    if (salt !== undefined) return { answer, code: codes.code(delivery.id, salt) }
    if (!await isAnswerable(db, notification.requestId, { userId: delivery.userId, clientId: client }, answer)) return undefined
    for (let next = 0; next < MAX_SALTS; next++) {
      const code = codes.code(delivery.id, next)
      const row = { deliveryId: delivery.id, e164, mac: codes.mac(e164, code), salt: next, answer, requestId: notification.requestId }
      if (await insertCode(db, row, clock.now())) return { answer, code }
    }
    return undefined
  }

  /** The gateway once opened and its first bind tried, waiting at most OPEN_WAIT_MS: a process just started sends at once. */
  async #started (): Promise<SmsGateway | undefined> {
    let timer: NodeJS.Timeout | undefined
    const gaveUp = new Promise<void>((resolve) => { timer = setTimeout(resolve, OPEN_WAIT_MS) })
    await Promise.race([this.#open.then(async () => await this.#gateway?.started), gaveUp])
    clearTimeout(timer)
    return this.#gateway
  }

  async close (): Promise<void> {
    this.#closed = true
    this.#opened()
    await this.#gateway?.close()
  }
}

/** The receipt stats that end a text's way: DELIVRD, and every way of not arriving. */
const FINAL_STATS = new Set(['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED', 'UNKNOWN'])

/** The job that opens the gateway once this instance's background work starts, and keeps an eye on nothing else. */
export function smsGatewayJob (channel: SmsChannel, replies: (text: IncomingText) => Promise<void>): Job {
  return {
    name: 'sms-gateway',
    intervalMs: 3_600_000,
    async run () {
      channel.start(replies)
      return undefined
    },
  }
}

/** The words of a delivery: a notification's text in the recipient's language and zone (with its reply code), an answer, or the phone's code. */
function textOf (delivery: OutgoingDelivery, help: SmsChannelOptions['help'], reply: { answer: CodeAnswer, code: string } | undefined): string | undefined {
  const { notification, account, locale, timeZone } = delivery
  const answer = replyAnswerOf(delivery)
  if (answer !== undefined) return replyAnswerText(locale, answer, help)
  if (delivery.reply != null) return replyOutcomeText(locale, delivery.reply.outcome, delivery.reply.title)
  if (notification !== null) {
    const when = whenText(notification.data.window_start ?? notification.requestWindowStart ?? undefined, locale, timeZone)
    const values = { title: notification.requestTitle, when, data: notification.data }
    // A coordinator's client has words of their own (docs/api/on-behalf.md › Texts to a client).
    if (delivery.client != null) return clientText(locale, notification.type, { ...values, helper: delivery.client.helperName }, reply)
    return notificationText(locale, notification.type, values, reply)
  }
  if (account?.message === PHONE_CODE_MESSAGE && account.code !== null) return phoneCodeText(locale, account.code)
  return undefined
}

function replyAnswerOf (delivery: OutgoingDelivery): ReplyAnswer | undefined {
  const message = delivery.account?.message
  return (REPLY_ANSWERS as readonly string[]).includes(message ?? '') ? message as ReplyAnswer : undefined
}

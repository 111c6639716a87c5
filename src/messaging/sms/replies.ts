import type { Database } from '../../db/database.js'
import type { Changes, Origin } from '../../events/dispatcher.js'
import type { ReplyAnswer, ReplyOutcome } from '../../events/notifications.js'
import type { Clock } from '../../lib/clock.js'
import type { ReplyCodes } from '../../lib/reply-codes.js'
import { readReply, type Reply, type ReplyKeyword } from '../../lib/sms-keywords.js'
import { storedFormsOf, toE164 } from '../../lib/phone-numbers.js'
import type { IncomingText } from './gateway.js'
import { notUnderstood } from './not-understood.js'
import { clientTakesTexts, countCodeMiss, findCode, openClientRequester, outOfCodeTries, requestOfCode, useCode, type CodeAnswer, type FoundCode } from './reply-codes.repo.js'
import { confirmedHolder, setStopped, takeIncoming } from './sms.repo.js'

/** The answer each keyword gets back (docs/api/messaging.md › Texts › Replies). */
const ANSWERS: Partial<Record<ReplyKeyword, ReplyAnswer>> = { stop: 'sms_stopped', start: 'sms_started', help: 'sms_help' }

/**
 * What replies with a code do, in the areas above (src/areas.ts hands them down), each as its API call would with
 * every rule of it, by the person the code's text went to. `origin.first` runs first in the change's transaction.
 * The answer is what came of it: done, or the refusal in the words of REPLY_OUTCOMES (nothing was changed then).
 */
export interface ReplyActions {
  /** YES: an offer by the volunteer (POST /requests/{id}/responses); 'offered' when made. */
  offer (userId: number, requestId: number, origin: Origin): Promise<ReplyOutcome>
  /** OK: the assigned volunteer confirms (POST /requests/{id}/confirm); 'confirmed' when done. */
  confirm (userId: number, requestId: number, origin: Origin): Promise<ReplyOutcome>
  /** NO: the requester cancels her own request (POST /requests/{id}/cancel); 'cancelled' when done. */
  cancel (userId: number, requestId: number, origin: Origin): Promise<ReplyOutcome>
}

const DONE: Record<CodeAnswer, ReplyOutcome> = { yes: 'offered', ok: 'confirmed', no: 'cancelled' }
const ACTION: Record<CodeAnswer, keyof ReplyActions> = { yes: 'offer', ok: 'confirm', no: 'cancel' }

/** Thrown in a reply's transaction to undo it: the text was taken before (a repeat), or its code was used meanwhile. */
const TAKEN = new Error('the reply was taken before')
const USED = new Error('the code was used meanwhile')

export interface RepliesOptions {
  /** SMS_DEFAULT_COUNTRY: the country of numbers written without a `+`. */
  defaultCountry: string
  /** TIME_ZONE: the days of the "sorry" answer's once a day. */
  timeZone: string
  codes: ReplyCodes
  actions: ReplyActions
  clock: Clock
}

/**
 * Texts people send to the service (docs/api/messaging.md › Texts › Replies). STOP and START take effect for the
 * number at once, whoever holds it, since they only decide what the service sends to it; a number somebody
 * confirmed also gets the answer (the last text after STOP, how to stop after START, the help text after HELP),
 * through the outbox like every text. YES, OK and NO with the code of a text this number got act through the
 * same rules as the API, in one transaction with the reply's row and the code's use. A number nobody confirmed
 * gets no answer. Each text is taken once, in the transaction that acts on it, however often the gateway hands
 * it over. Any other text, a code that does not act included, goes to the texts inbox (not-understood.ts).
 */
export class SmsReplies {
  constructor (private readonly db: Database, private readonly changes: Changes, private readonly options: RepliesOptions) {}

  async take (incoming: IncomingText): Promise<void> {
    const e164 = toE164(incoming.from, this.options.defaultCountry)
    if (e164 === null) return
    const reply = readReply(incoming.text)
    const coded = reply?.code === undefined ? undefined : { ...reply, code: reply.code }
    const { clock, timeZone } = this.options
    // Past the day's wrong codes, no code from the number acts, the right one included: a forger's guesses end there.
    const tries = coded !== undefined && !await outOfCodeTries(this.db, e164, clock.now(), timeZone)
    if (coded !== undefined && tries && await this.#answer(incoming, e164, coded)) return
    const requestId = coded === undefined ? undefined : await requestOfCode(this.db, e164, this.options.codes.mac(e164, coded.code))
    await this.changes.run(null, async (tx, change) => {
      if (!await takeIncoming(tx, incoming.gatewayId, change.at)) return
      if (coded !== undefined && tries && requestId === undefined) await countCodeMiss(tx, e164, change.at, timeZone)
      if (reply?.keyword === 'stop' || reply?.keyword === 'start') await setStopped(tx, e164, reply.keyword === 'stop', change.at)
      const answer = reply === undefined ? undefined : ANSWERS[reply.keyword]
      const holder = await confirmedHolder(tx, storedFormsOf(e164, this.options.defaultCountry))
      if (answer === undefined) return await notUnderstood(tx, change, { e164, text: incoming.text, holder, requestId }, this.options)
      if (holder !== undefined) change.record({ type: 'account_message', userId: holder, message: answer, sealedCode: null })
    })
  }

  /**
   * A reply with a code: false when the code is not one this number holds for this keyword (wrong, used, older than
   * 48 hours, or its text went to someone who no longer holds the number), so it is read as a text not understood.
   */
  async #answer (incoming: IncomingText, e164: string, reply: Reply & { code: string }): Promise<boolean> {
    const now = this.options.clock.now()
    const found = await findCode(this.db, e164, this.options.codes.mac(e164, reply.code), now)
    if (found === undefined || found.answer !== reply.keyword) return false
    if (found.clientId !== null) return await this.#clientSaysNo(incoming, e164, { ...found, clientId: found.clientId })
    if (await confirmedHolder(this.db, storedFormsOf(e164, this.options.defaultCountry)) !== found.userId) return false
    let outcome: ReplyOutcome
    try {
      outcome = await this.options.actions[ACTION[found.answer]](found.userId, found.requestId, this.#origin(incoming, found))
    } catch (error) {
      if (error === TAKEN) return true
      if (error === USED) return false
      throw error
    }
    if (outcome === DONE[found.answer]) return true
    // Refused, and nothing changed: the reply is taken with the answer saying why; the code stands for another try.
    await this.changes.run(null, async (tx, change) => {
      if (!await takeIncoming(tx, incoming.gatewayId, change.at)) return
      change.record({ type: 'reply_answered', userId: found.userId, requestId: found.requestId, outcome })
    })
    return true
  }

  /**
   * A client's NO (docs/api/on-behalf.md › Texts to a client): nothing is cancelled, since a client's request is the
   * coordinators' to change; each of its coordinators gets client_says_not_needed, to call the client and check. Only
   * from the number of the client's record while the client's consent stands; once, with the code's use.
   */
  async #clientSaysNo (incoming: IncomingText, e164: string, found: FoundCode & { clientId: number }): Promise<boolean> {
    if (!await clientTakesTexts(this.db, found.clientId, storedFormsOf(e164, this.options.defaultCountry))) return false
    return await this.changes.run(null, async (tx, change) => {
      if (!await takeIncoming(tx, incoming.gatewayId, change.at)) return true
      if (!await useCode(tx, found.deliveryId, change.at)) throw USED
      const coordinator = await openClientRequester(tx, found.requestId, found.clientId)
      if (coordinator !== undefined) change.notify({ userId: coordinator, type: 'client_says_not_needed', requestId: found.requestId, data: { client_id: found.clientId } })
      return true
    }).catch((error: unknown) => { if (error === USED) return false; throw error })
  }

  /** What the action's transaction does first: the reply taken, its code used, the answer that it was done recorded. */
  #origin (incoming: IncomingText, found: FoundCode): Origin {
    return {
      via: 'sms',
      async first (change) {
        if (!await takeIncoming(change.tx, incoming.gatewayId, change.at)) throw TAKEN
        if (!await useCode(change.tx, found.deliveryId, change.at)) throw USED
        change.record({ type: 'reply_answered', userId: found.userId, requestId: found.requestId, outcome: DONE[found.answer] })
      },
    }
  }
}

import type { Changes } from '../../events/dispatcher.js'
import type { ReplyAnswer } from '../../events/notifications.js'
import { readReply, type ReplyKeyword } from '../../lib/sms-keywords.js'
import { storedFormsOf, toE164 } from '../../lib/phone-numbers.js'
import type { IncomingText } from './gateway.js'
import { notUnderstood } from './not-understood.js'
import { confirmedHolder, setStopped, takeIncoming } from './sms.repo.js'

/** The answer each keyword gets back (docs/api/messaging.md › Texts › Replies). */
const ANSWERS: Partial<Record<ReplyKeyword, ReplyAnswer>> = { stop: 'sms_stopped', start: 'sms_started', help: 'sms_help' }

/**
 * Texts people send to the service (docs/api/messaging.md › Texts › Replies). STOP and START take effect for the
 * number at once, whoever holds it, since they only decide what the service sends to it; a number somebody
 * confirmed also gets the answer (the last text after STOP, how to stop after START, the help text after HELP),
 * through the outbox like every text. A number nobody confirmed gets no answer. Each text is taken once, in the
 * transaction that acts on it, however often the gateway hands it over. Any other text goes to the texts inbox
 * (not-understood.ts); so do YES, OK and NO, whose codes are not read yet: every code is a wrong one for now.
 */
export class SmsReplies {
  constructor (private readonly changes: Changes, private readonly defaultCountry: string, private readonly timeZone: string) {}

  async take (incoming: IncomingText): Promise<void> {
    const e164 = toE164(incoming.from, this.defaultCountry)
    if (e164 === null) return
    const reply = readReply(incoming.text)
    await this.changes.run(null, async (tx, change) => {
      if (!await takeIncoming(tx, incoming.gatewayId, change.at)) return
      if (reply?.keyword === 'stop' || reply?.keyword === 'start') await setStopped(tx, e164, reply.keyword === 'stop', change.at)
      const answer = reply === undefined ? undefined : ANSWERS[reply.keyword]
      const holder = await confirmedHolder(tx, storedFormsOf(e164, this.defaultCountry))
      if (answer === undefined) return await notUnderstood(tx, change, { e164, text: incoming.text, holder }, { defaultCountry: this.defaultCountry, timeZone: this.timeZone })
      if (holder !== undefined) change.record({ type: 'account_message', userId: holder, message: answer, sealedCode: null })
    })
  }
}

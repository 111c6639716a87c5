import type { Transaction } from '../../db/database.js'
import type { Change } from '../../events/dispatcher.js'
import { storedFormsOf } from '../../lib/phone-numbers.js'
import { addToInbox, consentingClient, countUnknownNumber, sorryDue } from './sms-inbox.repo.js'

/** The most of a text the inbox keeps, in characters: ten concatenated parts and more. */
export const MAX_INBOX_TEXT = 2000

/**
 * What the inbox can hold of a text: PostgreSQL text holds no U+0000 and no lone surrogate, which a gateway's UCS-2
 * may carry, so each becomes U+FFFD rather than the text being refused (and handed over again and again); cut at a
 * character, never inside one.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is what it replaces
const storable = (text: string): string => [...text.replace(/\u0000|\p{Cs}/gu, '\ufffd')].slice(0, MAX_INBOX_TEXT).join('')

/**
 * What a text not understood is: from which number (E.164), its words, the person who confirmed that number, if
 * anyone, and the request of the code it carried, when the code was one this number got but it did not act.
 */
export interface NotUnderstoodText { e164: string, text: string, holder: number | undefined, requestId?: number | undefined }

/**
 * A text the service did not understand (docs/api/messaging.md › Texts › The inbox), in the transaction that takes
 * it: from a number somebody confirmed it goes to the texts inbox for that person and gets "Sorry, we did not
 * understand" back at most once a day per number (days in `timeZone`); from a client who agreed to texts it goes to
 * the inbox for that client and gets nothing back (a client has no account to answer through); from any other number
 * nothing is stored and nothing is answered, and the text is only counted (/metrics).
 */
export async function notUnderstood (tx: Transaction, change: Change, text: NotUnderstoodText, settings: { defaultCountry: string, timeZone: string }): Promise<void> {
  const at = change.at
  if (text.holder !== undefined) {
    await addToInbox(tx, { userId: text.holder, clientId: null, text: storable(text.text), requestId: text.requestId ?? null, at })
    if (await sorryDue(tx, text.e164, at, settings.timeZone)) {
      change.record({ type: 'account_message', userId: text.holder, message: 'sms_sorry', sealedCode: null })
    }
    return
  }
  // A client's number: matched where a coordinator recorded the client's consent to texts (clients.texts_how), in
  // any form their record may hold it.
  const client = await consentingClient(tx, storedFormsOf(text.e164, settings.defaultCountry))
  if (client !== undefined) {
    await addToInbox(tx, { userId: null, clientId: client, text: storable(text.text), requestId: text.requestId ?? null, at })
    return
  }
  await countUnknownNumber(tx)
}

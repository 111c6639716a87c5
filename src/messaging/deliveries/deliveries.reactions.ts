import type { Reactions } from '../../events/dispatcher.js'
import { deleteDeliveriesOf, insertAccountDelivery, insertInvitationDelivery, insertReplyAnswer } from './deliveries.repo.js'
import { deleteSettingsOf } from './notification-settings.repo.js'

/**
 * The outbox rows that are no notification's: account e-mails of docs/api/accounts.md › Getting back in, written in the
 * transaction that made the code (or changed the password), and sent whatever the preferences; and the
 * e-mail inviting an address without an account to help someone (docs/api/on-behalf.md › Carers; an account is notified
 * instead, by the carers reaction). A notification's own deliveries are written with it (reactions.ts, notificationWriter).
 */
export const deliveriesReactions: Reactions = {
  async account_message ({ userId, message, sealedCode }, { tx, at }) {
    await insertAccountDelivery(tx, userId, message, sealedCode, at)
  },
  async reply_answered ({ userId, requestId, outcome }, { tx, at }) {
    await insertReplyAnswer(tx, userId, requestId, outcome, at)
  },
  async trust_invited ({ invitationId, ownerId, carerId }, { tx, at }) {
    if (carerId === null) await insertInvitationDelivery(tx, ownerId, invitationId, at)
  },
  // Erasure (docs/privacy.md › Erasure): nothing more is sent to the account, its codes go, and so do its choices.
  async user_erased ({ userId }, { tx }) {
    await deleteDeliveriesOf(tx, userId)
    await deleteSettingsOf(tx, userId)
  },
}

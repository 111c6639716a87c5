import type { Reactions } from '../../events/dispatcher.js'
import { deleteDeliveriesOf, insertAccountDelivery } from './deliveries.repo.js'
import { deleteSettingsOf } from './notification-settings.repo.js'

/**
 * The outbox rows that are no notification's: account e-mails of docs/api/accounts.md › Getting back in, written in the
 * transaction that made the code (or changed the password), and sent whatever the preferences. A
 * notification's own deliveries are written with it (reactions.ts, notificationWriter).
 */
export const deliveriesReactions: Reactions = {
  async account_message ({ userId, message, sealedCode }, { tx, at }) {
    await insertAccountDelivery(tx, userId, message, sealedCode, at)
  },
  // Erasure (docs/privacy.md › Erasure): nothing more is sent to the account, its codes go, and so do its choices.
  async user_erased ({ userId }, { tx }) {
    await deleteDeliveriesOf(tx, userId)
    await deleteSettingsOf(tx, userId)
  },
}

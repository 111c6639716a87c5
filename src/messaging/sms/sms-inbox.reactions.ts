import type { Reactions } from '../../events/dispatcher.js'
import { deleteInboxOf } from './sms-inbox.repo.js'

export const smsInboxReactions: Reactions = {
  // Erasure (docs/privacy.md › Erasure): the account's row stays (as "Former user"), so its texts do not cascade: deleted here.
  async user_erased ({ userId }, { tx }) {
    await deleteInboxOf(tx, userId)
  },
}

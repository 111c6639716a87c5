import type { Reactions } from '../../events/dispatcher.js'
import { deleteFeed } from './calendar.repo.js'

export const calendarReactions: Reactions = {
  // Erasure (docs/privacy.md › Erasure): the feed's address stops working with the account.
  async user_erased ({ userId }, { tx }) {
    await deleteFeed(tx, userId)
  },
}

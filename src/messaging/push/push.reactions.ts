import type { Reactions } from '../../events/dispatcher.js'
import { deleteSubscriptionsOf } from './push.repo.js'

export const pushReactions: Reactions = {
  // Erasure (docs/privacy.md › Erasure): the account's devices are forgotten, so nothing can reach them any more.
  async user_erased ({ userId }, { tx }) {
    await deleteSubscriptionsOf(tx, userId)
  },
}

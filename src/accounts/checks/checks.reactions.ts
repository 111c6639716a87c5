import type { Reactions } from '../../events/dispatcher.js'
import { eraseChecksOf } from './checks.repo.js'

export const checksReactions: Reactions = {
  // Erasure (docs/privacy.md › Checks): the checks stay as a record, revoked and without their notes.
  async user_erased ({ userId }, { tx, at }) {
    await eraseChecksOf(tx, userId, at)
  },
}

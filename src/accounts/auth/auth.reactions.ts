import type { Reactions } from '../../events/dispatcher.js'
import { deleteCodes, revokeRefreshTokens } from './auth.repo.js'

/**
 * Blocking and erasure end every session: refresh tokens are revoked (access tokens fail within the principal
 * cache's TTL). Erasure also deletes the account's codes (docs/api/accounts.md › Getting back in).
 */
export const authReactions: Reactions = {
  async user_blocked ({ userId }, { tx }) {
    await revokeRefreshTokens(tx, userId, 'blocked')
  },
  async user_erased ({ userId }, { tx }) {
    await revokeRefreshTokens(tx, userId, 'erased')
    await deleteCodes(tx, userId)
  },
}

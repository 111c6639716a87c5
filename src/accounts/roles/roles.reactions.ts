import type { Reactions } from '../../events/dispatcher.js'
import { revokeAllRoles } from './roles.repo.js'

export const rolesReactions: Reactions = {
  // Erasure (docs/privacy.md › Erasure): an erased account holds no role.
  async user_erased ({ userId }, { tx }) {
    await revokeAllRoles(tx, userId)
  },
}

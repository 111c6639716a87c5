import type { Reactions } from '../../events/dispatcher.js'
import { revokeAllRoles } from './roles.repo.js'

export const rolesReactions: Reactions = {
  // Erasure (privacy.md §3): an erased account holds no role.
  async user_erased ({ userId }, { tx }) {
    await revokeAllRoles(tx, userId)
  },
}

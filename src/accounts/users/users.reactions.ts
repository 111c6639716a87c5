import { randomBytes } from 'node:crypto'
import type { Reactions } from '../../events/dispatcher.js'
import { eraseUser } from './users.repo.js'

export const usersReactions: Reactions = {
  // Erasure (docs/privacy.md › Erasure): the row stays, its personal fields go; the e-mail becomes one nobody can
  // register or sign in with, and unique, so the address is free for a new account.
  async user_erased ({ userId }, { tx }) {
    await eraseUser(tx, userId, `erased-${userId}-${randomBytes(12).toString('hex')}@erased.invalid`)
  },
}

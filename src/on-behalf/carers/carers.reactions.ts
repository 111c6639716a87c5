import type { Reactions } from '../../events/dispatcher.js'
import { deleteInvitationsOf, nameOf } from './carers.repo.js'

/** docs/api/on-behalf.md › Carers: the person is told of each request a carer made for them; docs/privacy.md › Erasure: erasure. */
export const carersReactions: Reactions = {
  async request_created ({ requestId, requesterId }, { tx, actor, notify }) {
    if (actor === null || typeof actor === 'number' || actor.role !== 'carer') return
    notify({ userId: requesterId, type: 'request_created_for_you', requestId, data: { by_name: await nameOf(tx, actor.id) } })
  },
  // Both the invitations the person made and those naming them; before the users reaction replaces their address.
  async user_erased ({ userId }, { tx }) {
    await deleteInvitationsOf(tx, userId)
  },
}

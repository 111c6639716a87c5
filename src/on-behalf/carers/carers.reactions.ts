import type { Reactions } from '../../events/dispatcher.js'
import { deleteInvitationsOf, nameOf } from './carers.repo.js'

/**
 * Carers (docs/api/on-behalf.md): an invited account is told of the invitation (an address without one is e-mailed by the
 * deliveries reaction), the person of each request a carer made for them; erasure (docs/privacy.md).
 */
export const carersReactions: Reactions = {
  async trust_invited ({ invitationId, ownerId, carerId }, { tx, notify }) {
    if (carerId === null) return
    notify({ userId: carerId, type: 'trust_invitation', requestId: null, data: { invitation_id: invitationId, from_name: await nameOf(tx, ownerId) } })
  },
  async request_created ({ requestId, requesterId }, { tx, actor, notify }) {
    if (actor === null || typeof actor === 'number' || actor.role !== 'carer') return
    notify({ userId: requesterId, type: 'request_created_for_you', requestId, data: { by_name: await nameOf(tx, actor.id) } })
  },
  // Both the invitations the person made and those naming them; before the users reaction replaces their address.
  async user_erased ({ userId }, { tx }) {
    await deleteInvitationsOf(tx, userId)
  },
}

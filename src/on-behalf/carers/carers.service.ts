import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import { badRequest, fail, notFound } from '../../lib/errors.js'
import type { Principal } from '../../lib/principal.js'
import * as carers from './carers.repo.js'
import type { ActingFor, InviteInput, TrustedPerson } from './carers.schemas.js'

export const INVALID_CAN = 'invalid can'
export const INVITATION_NOT_FOUND = 'invitation not found'

/** `can` as given, checked against CARER_CAN, with `follow` added (docs/api/on-behalf.md › Carers), in CARER_CAN's order. */
export function grantOf (can: readonly unknown[]): carers.CarerCan[] {
  if (!can.every((item) => (carers.CARER_CAN as readonly unknown[]).includes(item))) throw badRequest(INVALID_CAN)
  return carers.CARER_CAN.filter((item) => item === 'follow' || can.includes(item))
}

/**
 * docs/api/on-behalf.md › Carers, both sides of a carer's invitation. What a grant then allows on requests is decided by the
 * requests' acting policy (requests/acting.ts), which reads the accepted invitation in the change's transaction.
 */
export class CarersService {
  constructor (private readonly db: Database, private readonly changes: Changes) {}

  /**
   * The same answer whether or not the address has an account (no account enumeration): the only difference,
   * how the invited person is told (a notification to an account, an e-mail to an address without one: the
   * reactions to `trust_invited`), is written in the same transaction. Inviting an address again changes that
   * invitation's `can` (docs/api/on-behalf.md › Carers), and tells nobody again unless it had been declined.
   */
  async invite (owner: Principal, input: InviteInput): Promise<TrustedPerson> {
    const can = grantOf(input.can)
    const email = input.email.trim().toLowerCase()
    return await this.changes.run(owner.id, async (tx, change) => {
      if ((await carers.emailOf(tx, owner.id)).toLowerCase() === email) throw badRequest('cannot invite yourself')
      const { row, renewed, carerId } = await carers.upsertInvitation(tx, owner.id, email, can, change.at)
      if (renewed) change.record({ type: 'trust_invited', invitationId: row.id, ownerId: owner.id, carerId })
      return row
    })
  }

  async listTrusted (owner: Principal): Promise<TrustedPerson[]> {
    return await carers.listTrusted(this.db, owner.id)
  }

  /** Effective at once: the acting policy reads only accepted rows, in each change's transaction. */
  async revoke (owner: Principal, id: number): Promise<void> {
    if (!await carers.deleteInvitation(this.db, owner.id, id)) throw notFound(INVITATION_NOT_FOUND)
  }

  async listActingFor (carer: Principal): Promise<ActingFor[]> {
    return await carers.listActingFor(this.db, carer.id)
  }

  /** Accept (again: no change), or decline, which is also how a carer stops after accepting. */
  async decide (carer: Principal, id: number, status: 'accepted' | 'declined'): Promise<ActingFor> {
    return await this.changes.run(carer.id, async (tx, change) => {
      return await carers.decide(tx, carer.id, id, status, change.at) ?? fail(notFound(INVITATION_NOT_FOUND))
    })
  }
}

import type { Queryable } from '../../db/database.js'
import type { Acting } from '../../events/events.js'
import { forbidden, notFound } from '../../lib/errors.js'
import { hasPermission, type Principal } from '../../lib/principal.js'
import { findGrant, type CarerCan } from '../carers/carers.repo.js'
import { findClientDefaults, type ClientDefaults } from '../clients/clients.repo.js'

/**
 * Acting for someone (docs/api/on-behalf.md), decided in one place: every operation a requester may make on her request
 * (accept, reject, complete, cancel) and the creation of a request ask here in what capacity the caller
 * acts, and pass the answer to the change, whose history records it (› A request's history).
 */

export const COORDINATOR_REQUIRED = 'coordinator role required'
export const NOT_ALLOWED_FOR_PERSON = 'not allowed for this person'
export const CLIENT_NOT_FOUND = 'client not found'

/** What a requester does on her request; `follow` is reading it (a carer's least grant). */
export type RequesterAction = Exclude<CarerCan, 'create'>

/** The columns the policy needs of a request. */
export interface RequestOwner { requester_id: number, client_id: number | null }

/**
 * Without a database round trip: any coordinator on a client's request (its requester_id is only the coordinator
 * who created it, so a former coordinator loses it with the role), or the requester on her own.
 */
export function actingDirectly (caller: Principal, request: RequestOwner): Acting | undefined {
  if (request.client_id !== null) {
    return hasPermission(caller, 'coordinate_requests') ? { id: caller.id, role: 'coordinator', onBehalfOf: { client_id: request.client_id } } : undefined
  }
  return caller.id === request.requester_id ? { id: caller.id, role: 'requester', onBehalfOf: null } : undefined
}

/**
 * In what capacity the caller may do `action` as the request's requester: herself, a coordinator, or a carer by
 * an accepted invitation (read in `db`, the change's transaction: a revocation holds at once). Undefined when
 * the caller has no such standing (the operation then answers as 1.0.1 does); 403 'not allowed for this
 * person' to a carer whose grant does not include the action.
 */
export async function actingAsRequester (db: Queryable, caller: Principal, request: RequestOwner, action: RequesterAction): Promise<Acting | undefined> {
  const direct = actingDirectly(caller, request)
  if (direct !== undefined || request.client_id !== null) return direct
  const grant = await findGrant(db, request.requester_id, caller.id)
  if (grant === undefined) return undefined
  if (!grant.includes(action)) throw forbidden(NOT_ALLOWED_FOR_PERSON)
  return { id: caller.id, role: 'carer', onBehalfOf: { user_id: request.requester_id } }
}

/**
 * docs/api/on-behalf.md › Carers: the caller reads the person's requests (GET /requests/my?for_user_id=N) herself, or as a carer
 * by an accepted grant (every grant includes `follow`); anyone else → 403 'not allowed for this person'.
 */
export async function actingAsFollower (db: Queryable, caller: Principal, personId: number): Promise<void> {
  if (personId === caller.id) return
  const grant = await findGrant(db, personId, caller.id)
  if (grant?.includes('follow') !== true) throw forbidden(NOT_ALLOWED_FOR_PERSON)
}

/** `on_behalf_of` of POST /requests. */
export type CreateFor = { client_id: number } | { user_id: number }

/** Who a new request is asked by and for: its requester_id, the actor, and the client's record for a client's request. */
export interface CreationStanding { requesterId: number, acting: Acting, client: ClientDefaults | null }

/** docs/api/on-behalf.md › Coordinators and clients, › Carers: the caller asks for herself, for a client (coordinators), or for a person who granted `create`. */
export async function actingToCreate (db: Queryable, caller: Principal, onBehalfOf: CreateFor | undefined): Promise<CreationStanding> {
  if (onBehalfOf === undefined || ('user_id' in onBehalfOf && onBehalfOf.user_id === caller.id)) {
    if (!hasPermission(caller, 'create_request')) throw forbidden('create_request permission required')
    return { requesterId: caller.id, acting: { id: caller.id, role: 'requester', onBehalfOf: null }, client: null }
  }
  if ('client_id' in onBehalfOf) {
    if (!hasPermission(caller, 'coordinate_requests')) throw forbidden(COORDINATOR_REQUIRED)
    const client = await findClientDefaults(db, onBehalfOf.client_id)
    if (client === undefined) throw notFound(CLIENT_NOT_FOUND)
    return { requesterId: caller.id, acting: { id: caller.id, role: 'coordinator', onBehalfOf: { client_id: client.id } }, client }
  }
  const grant = await findGrant(db, onBehalfOf.user_id, caller.id)
  if (grant?.includes('create') !== true) throw forbidden(NOT_ALLOWED_FOR_PERSON)
  return { requesterId: onBehalfOf.user_id, acting: { id: caller.id, role: 'carer', onBehalfOf: { user_id: onBehalfOf.user_id } }, client: null }
}

/** The capacity of a moderator's or admin's change (history's actor role). */
export function actingAsModerator (caller: Principal): Acting {
  return { id: caller.id, role: caller.roles.includes('admin') ? 'admin' : 'moderator', onBehalfOf: null }
}

/** The capacity of a volunteer's change on their own offer. */
export function actingAsVolunteer (caller: Principal): Acting {
  return { id: caller.id, role: 'volunteer', onBehalfOf: null }
}

import type { Queryable } from '../db/database.js'
import type { Acting } from '../events/events.js'
import { forbidden, notFound } from '../lib/errors.js'
import { hasPermission, type Principal } from '../lib/principal.js'
import {
  actingDirectly, CLIENT_NOT_FOUND, COORDINATOR_REQUIRED, NOT_ALLOWED_FOR_PERSON,
  type ActingPolicy, type CreateFor, type CreationStanding, type RequesterAction, type RequestOwner,
} from '../help/requests/acting.js'
import { findGrant } from './carers/carers.repo.js'
import { findClientDefaults } from './clients/clients.repo.js'

async function asRequester (db: Queryable, caller: Principal, request: RequestOwner, action: RequesterAction): Promise<Acting | undefined> {
  const direct = actingDirectly(caller, request)
  if (direct !== undefined || request.client_id !== null) return direct
  const grant = await findGrant(db, request.requester_id, caller.id)
  if (grant === undefined) return undefined
  if (!grant.includes(action)) throw forbidden(NOT_ALLOWED_FOR_PERSON)
  return { id: caller.id, role: 'carer', onBehalfOf: { user_id: request.requester_id } }
}

/** GET /requests/my?for_user_id=N: every accepted grant includes `follow`. */
async function asFollower (db: Queryable, caller: Principal, personId: number): Promise<void> {
  if (personId === caller.id) return
  const grant = await findGrant(db, personId, caller.id)
  if (grant?.includes('follow') !== true) throw forbidden(NOT_ALLOWED_FOR_PERSON)
}

async function toCreate (db: Queryable, caller: Principal, onBehalfOf: CreateFor | undefined): Promise<CreationStanding> {
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

/** The standings of coordinators (a client's record) and carers (an accepted grant), handed down to help/ and regular-help/. */
export const actingPolicy: ActingPolicy = { asRequester, asFollower, toCreate }

import type { Queryable } from '../../db/database.js'
import type { Acting } from '../../events/events.js'
import { badRequest } from '../../lib/errors.js'
import { hasPermission, type Principal } from '../../lib/principal.js'

/**
 * Acting for someone, decided in one place: every operation a requester may make on her request (accept,
 * reject, complete, cancel) and the creation of a request ask in what capacity the caller acts, and pass the
 * answer to the change, whose history records it. The standings that need a carer's grant or a client's record
 * are on-behalf/'s (on-behalf/acting.ts implements ActingPolicy); help/ declares what it asks of them.
 */

export const COORDINATOR_REQUIRED = 'coordinator role required'
export const NOT_ALLOWED_FOR_PERSON = 'not allowed for this person'
export const CLIENT_NOT_FOUND = 'client not found'

/**
 * What a requester does on her request; `follow` is reading it (a carer's least grant); `create` also changing
 * a series asked for the person (docs/api/on-behalf.md › Series for someone).
 */
export type RequesterAction = 'follow' | 'create' | 'accept' | 'cancel' | 'complete'

/** The columns the policy needs of a request. */
export interface RequestOwner { requester_id: number, client_id: number | null }

/** `on_behalf_of` of POST /requests. */
export type CreateFor = { client_id: number } | { user_id: number }

/** What a request asked for a client takes from the client's record when the coordinator leaves it out. */
export interface ClientDefaults {
  id: number
  phone: string | null
  address: string | null
  city: string | null
  latitude: number | null
  longitude: number | null
}

/** Where a request's or a series template's place and phone are given, or left to the client's record. */
interface Located { latitude?: number, longitude?: number, address?: string, city?: string, contact_phone?: string }

/**
 * docs/api/on-behalf.md › Coordinators and clients: a client's request (or series) takes the client's phone, point and address where
 * the coordinator left them out; then the point and address are required as 1.0.1 requires them.
 */
export function withClientDefaults<T extends Located> (input: T, client: ClientDefaults | null): T & { latitude: number, longitude: number, address: string } {
  const latitude = input.latitude ?? client?.latitude ?? undefined
  const longitude = input.longitude ?? client?.longitude ?? undefined
  const address = input.address ?? client?.address ?? undefined
  if (latitude === undefined) throw badRequest('latitude is required')
  if (longitude === undefined) throw badRequest('longitude is required')
  if (address === undefined) throw badRequest('address is required')
  const city = input.city ?? client?.city ?? undefined
  const phone = input.contact_phone ?? client?.phone ?? undefined
  return { ...input, latitude, longitude, address, ...(city === undefined ? {} : { city }), ...(phone === undefined ? {} : { contact_phone: phone }) }
}

/** Who a new request is asked by and for: its requester_id, the actor, and the client's record for a client's request. */
export interface CreationStanding { requesterId: number, acting: Acting, client: ClientDefaults | null }

/** The standings read in the change's transaction (`db`), so that a revoked grant or an erased client holds at once. */
export interface ActingPolicy {
  /**
   * In what capacity the caller may do `action` as the request's requester: herself, a coordinator, or a carer by
   * an accepted invitation. Undefined when the caller has no such standing (the operation then answers as it
   * would to anyone); 403 'not allowed for this person' to a carer whose grant does not include the action.
   */
  asRequester: (db: Queryable, caller: Principal, request: RequestOwner, action: RequesterAction) => Promise<Acting | undefined>
  /** The caller reads the person's requests herself, or as a carer by an accepted grant; anyone else: 403. */
  asFollower: (db: Queryable, caller: Principal, personId: number) => Promise<void>
  /** The caller asks for herself, for a client (coordinators), or for a person who granted `create`. */
  toCreate: (db: Queryable, caller: Principal, onBehalfOf: CreateFor | undefined) => Promise<CreationStanding>
}

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

/** The capacity of a moderator's or admin's change (history's actor role). */
export function actingAsModerator (caller: Principal): Acting {
  return { id: caller.id, role: caller.roles.includes('admin') ? 'admin' : 'moderator', onBehalfOf: null }
}

/** The capacity of a volunteer's change on their own offer. */
export function actingAsVolunteer (caller: Principal): Acting {
  return { id: caller.id, role: 'volunteer', onBehalfOf: null }
}

import { hasPermission, isModerator, type Principal } from '../../lib/principal.js'
import type { RequestStatus } from './requests.schemas.js'

/**
 * Who may see what of a request (docs/api/help.md › Reading one request), in one place: the requests and responses
 * services both decide with these, so a 404 for a hidden request means the same on every route.
 */

/** Statuses whose requests only their parties and moderators may see. */
const HIDDEN_STATUSES: readonly RequestStatus[] = ['rejected', 'cancelled']

/**
 * `client_id`: a client's request (docs/api/on-behalf.md › Coordinators and clients), whose requester side is every coordinator; rows of the searches
 * leave it out (a search shows nobody a request as its party).
 */
export interface Parties extends CarerOf { requester_id: number, assigned_volunteer_id: number | null, client_id?: number | null }

/**
 * docs/api/on-behalf.md › Carers: `viewer_is_carer`, read with the request for the viewer (carers.repo.ts caresFor): the viewer is
 * an accepted carer of the requester, so on her side, a party with her (her contact details, her address and
 * point, every response, also rejected and cancelled requests). Rows of the searches leave it out.
 */
export interface CarerOf { viewer_is_carer?: boolean }

/** Every coordinator on a client's request (docs/api/on-behalf.md › Coordinators and clients); its requester_id is only the one who created it. */
const coordinates = (viewer: Principal, request: Parties): boolean => request.client_id != null && hasPermission(viewer, 'coordinate_requests')

/** The requester, the assigned volunteer, moderators and admins, coordinators on a client's request: who may see contact details. */
export function isParty (viewer: Principal, request: Parties): boolean {
  return viewer.id === request.requester_id || viewer.id === request.assigned_volunteer_id || isModerator(viewer) || coordinates(viewer, request) ||
    request.viewer_is_carer === true
}

/** Whether the viewer may know the request exists: rejected and cancelled ones are for their parties only. */
export function isVisibleTo (viewer: Principal, request: Parties & { status: RequestStatus }): boolean {
  return !HIDDEN_STATUSES.includes(request.status) || isParty(viewer, request)
}

/** The requester and her carers, moderators and admins see every response on a request; a volunteer sees only their own. */
export function seesAllResponses (viewer: Principal, request: Parties): boolean {
  return viewer.id === request.requester_id || isModerator(viewer) || coordinates(viewer, request) || request.viewer_is_carer === true
}

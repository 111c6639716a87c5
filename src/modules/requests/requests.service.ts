import type { Database } from '../../db/database.js'
import { badRequest, forbidden, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import { hasPermission, isModerator, type Principal } from '../auth/principals.js'
import { isActiveRequestType } from '../request-types/request-types.repo.js'
import * as requests from './requests.repo.js'
import type { CreateRequestInput, Request, RequestDetail, RequestStatus } from './requests.schemas.js'

/** Statuses whose requests only their parties and moderators may see (rules.md › Privacy). */
const HIDDEN_STATUSES: readonly RequestStatus[] = ['rejected', 'cancelled']

interface Parties { requester_id: number, assigned_volunteer_id: number | null }

/** The requester, the assigned volunteer, moderators and admins: who may see contact details. */
export function isParty (viewer: Principal, request: Parties): boolean {
  return viewer.id === request.requester_id || viewer.id === request.assigned_volunteer_id || isModerator(viewer)
}

/** Contact details are blanked for anyone not a party to the request. */
export function withContactFor<T extends Parties & { contact_phone: string | null, contact_notes: string | null }> (viewer: Principal, request: T): T {
  return isParty(viewer, request) ? request : { ...request, contact_phone: null, contact_notes: null }
}

export class RequestsService {
  constructor (private readonly db: Database) {}

  async create (user: Principal, input: CreateRequestInput): Promise<Request> {
    if (!hasPermission(user, 'create_request')) throw forbidden('create_request permission required')
    if (input.desired_completion_date != null && Date.parse(input.desired_completion_date) <= Date.now()) {
      throw badRequest('desired_completion_date must be in the future')
    }
    if (!await isActiveRequestType(this.db, input.request_type_id)) throw badRequest('invalid request type')
    return await requests.insertRequest(this.db, user.id, input)
  }

  async get (viewer: Principal, id: number): Promise<RequestDetail> {
    const request = await requests.findRequestDetail(this.db, id)
    if (request === undefined) throw notFound(REQUEST_NOT_FOUND)
    if (HIDDEN_STATUSES.includes(request.status) && !isParty(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
    return withContactFor(viewer, request)
  }
}

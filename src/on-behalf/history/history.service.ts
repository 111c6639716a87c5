import type { Database } from '../../db/database.js'
import { notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Principal } from '../../lib/principal.js'
import { findRequestParties } from '../../help/requests/requests.reads.js'
import { isParty, seesAllResponses } from '../../help/requests/visibility.js'
import { listEntries, type EntryRow } from './history.repo.js'
import type { HistoryEntry } from './history.schemas.js'

function toEntry (row: EntryRow): HistoryEntry {
  const actor = row.actor_id === null || row.actor_role === 'service'
    ? { role: 'service' as const }
    : { id: Number(row.actor_id), name: row.actor_name ?? '', role: row.actor_role }
  const onBehalfOf = row.on_behalf_client_id !== null
    ? { client_id: Number(row.on_behalf_client_id) }
    : row.on_behalf_user_id !== null ? { user_id: Number(row.on_behalf_user_id) } : null
  return { at: row.at, action: row.action, actor, on_behalf_of: onBehalfOf, details: row.details }
}

/** docs/api/on-behalf.md › A request's history: a request's history, for its parties and the requester's carers. */
export class HistoryService {
  constructor (private readonly db: Database) {}

  /**
   * The request's parties (visibility.ts isParty: the requester, the assigned volunteer, moderators and admins,
   * coordinators on a client's request) and carers of the requester by an accepted invitation (`follow` is always
   * granted); to anyone else the request does not exist. A viewer who sees only their own offer (the assigned
   * volunteer) sees only their own offer's entries, as GET /requests/{id}/responses shows them.
   */
  async list (viewer: Principal, id: number): Promise<HistoryEntry[]> {
    const request = await findRequestParties(this.db, id, viewer.id)
    // isParty counts the requester's carers too (visibility.ts CarerOf: read with the request).
    if (request === undefined || !isParty(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
    const seesAll = seesAllResponses(viewer, request)
    const rows = await listEntries(this.db, id)
    return rows.filter((row) => seesAll || row.offer_volunteer_id === null || Number(row.offer_volunteer_id) === viewer.id).map(toEntry)
  }
}

import { maybeOne, type Queryable } from '../../db/database.js'
import { raw, sql } from '../../db/sql.js'
import type { Page } from '../../lib/page.js'
import { caresFor } from '../carers/carers.repo.js'
import { REQUEST_COLUMNS, type DetailRow } from './requests.repo.js'
import type { RequestStatus } from './requests.values.js'
import type { Parties } from './visibility.js'
import { LIST_ITEM_COLUMNS, LIST_ITEM_FROM, LOCATION_COLUMNS, type ListItemRow } from './search/shared.js'

/** Reads of one request and of the requester's own list; the statements that write requests are in requests.repo.ts. */

const userInfo = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'email', ${alias}.email, 'first_name', ${alias}.first_name,
    'last_name', ${alias}.last_name, 'email_verified', ${alias}.email_verified)`
const DETAIL_PARTIES = raw(`${userInfo('u')} AS requester,
      json_build_object('id', t.id, 'name', t.name, 'description', t.description, 'icon', t.icon, 'is_active', t.is_active) AS request_type,
      CASE WHEN v.id IS NULL THEN NULL ELSE ${userInfo('v')} END AS assigned_volunteer`)

const REQUESTER = raw('r.requester_id')

/**
 * The request with its requester, type and assigned volunteer, and whether `viewerId` is the requester's
 * carer (visibility.ts), in one query.
 */
export function findRequestDetail (db: Queryable, id: number, viewerId: number): Promise<DetailRow | undefined> {
  return maybeOne<DetailRow>(db, sql`
    SELECT ${REQUEST_COLUMNS}, ${LOCATION_COLUMNS},
      ${DETAIL_PARTIES}, ${caresFor(REQUESTER, viewerId)} AS viewer_is_carer
    FROM requests r
      JOIN users u ON u.id = r.requester_id
      JOIN request_types t ON t.id = r.request_type_id
      LEFT JOIN users v ON v.id = r.assigned_volunteer_id
    WHERE r.id = ${id}`)
}

/** Who may see what of one request, for `viewerId`: enough to decide without loading the whole detail. */
export function findRequestParties (db: Queryable, id: number, viewerId: number): Promise<Parties & { status: RequestStatus, client_id: number | null } | undefined> {
  return maybeOne(db, sql`
    SELECT r.requester_id, r.assigned_volunteer_id, r.status, r.client_id, ${caresFor(REQUESTER, viewerId)} AS viewer_is_carer
    FROM requests r WHERE r.id = ${id}`)
}

/** The caller's own requests, any status, newest first. */
export function listByRequester (db: Queryable, requesterId: number, page: Page): Promise<ListItemRow[]> {
  return db.query<ListItemRow>(sql`
    SELECT ${LIST_ITEM_COLUMNS}
    FROM ${LIST_ITEM_FROM}
    WHERE r.requester_id = ${requesterId}
    ORDER BY r.created_at DESC, r.id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

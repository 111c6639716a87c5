import { maybeOne, type Queryable } from '../../db/database.js'
import { empty, raw, sql, type Sql } from '../../db/sql.js'
import type { Page } from '../../lib/page.js'
import { REQUEST_COLUMNS, type CancelReason, type DetailRow } from './requests.repo.js'
import { ownedBy, type RequestsOf } from './retention.repo.js'
import type { RequestStatus } from './requests.values.js'
import { suitableFor } from '../needs/matching.js'
import type { Parties } from './visibility.js'
import { LIST_ITEM_COLUMNS, LIST_ITEM_FROM, LOCATION_COLUMNS, type ListItemRow } from './search/shared.js'

/**
 * Whether `viewerId` is an accepted carer of the requester in `requesterColumn` (every grant includes `follow`;
 * on-behalf/carers owns the table), for a request of the requester's own: a request a coordinator asked for her
 * client is the client's, and her own carer is no party to it: a column of the one query that reads a request for a viewer, so an ordinary
 * read makes no extra round trip.
 */
const caresFor = (requesterColumn: Sql, viewerId: number): Sql => sql`(${requesterColumn} <> ${viewerId} AND r.client_id IS NULL AND EXISTS (
  SELECT 1 FROM trusted_people tp WHERE tp.owner_id = ${requesterColumn} AND tp.carer_id = ${viewerId} AND tp.status = 'accepted'))`

/** Reads of one request and of the requester's own list; the statements that write requests are in requests.repo.ts. */

const userInfo = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'email', ${alias}.email, 'first_name', ${alias}.first_name,
    'last_name', ${alias}.last_name, 'email_verified', ${alias}.email_verified)`
const DETAIL_PARTIES = raw(`${userInfo('u')} AS requester,
      json_build_object('id', t.id, 'name', t.name, 'description', t.description, 'icon', t.icon, 'is_active', t.is_active,
        'default_needs', t.default_needs) AS request_type,
      CASE WHEN v.id IS NULL THEN NULL ELSE ${userInfo('v')} END AS assigned_volunteer,
      CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'first_name', c.first_name, 'last_name', c.last_name, 'needs', c.needs) END AS client`)

const REQUESTER = raw('r.requester_id')

/** How a read decides `suitable` for a viewer who offers help (docs/api/visits.md › Needs and matching): on today's checks. */
export interface Matching { today: string }

/** `suitable` for the viewer when they offer help, else NULL (the field is left out). */
export const suitableColumn = (viewerId: number, match: Matching | undefined): Sql => match === undefined
  ? raw('NULL::boolean')
  : suitableFor(sql`${viewerId}::bigint`, sql`${match.today}::date`)

/**
 * The request with its requester, type, assigned volunteer and client (docs/api/on-behalf.md › Coordinators and clients), and whether `viewerId`
 * is the requester's carer (visibility.ts), in one query.
 */
export function findRequestDetail (db: Queryable, id: number, viewerId: number, match?: Matching): Promise<DetailRow | undefined> {
  return maybeOne<DetailRow>(db, sql`
    SELECT ${REQUEST_COLUMNS}, ${LOCATION_COLUMNS},
      ${DETAIL_PARTIES}, ${caresFor(REQUESTER, viewerId)} AS viewer_is_carer, ${suitableColumn(viewerId, match)} AS suitable
    FROM requests r
      JOIN users u ON u.id = r.requester_id
      JOIN request_types t ON t.id = r.request_type_id
      LEFT JOIN users v ON v.id = r.assigned_volunteer_id
      LEFT JOIN clients c ON c.id = r.client_id
    WHERE r.id = ${id}`)
}

/** Who may see what of one request, for `viewerId`: enough to decide without loading the whole detail. */
export function findRequestParties (db: Queryable, id: number, viewerId: number): Promise<Parties & { status: RequestStatus, client_id: number | null } | undefined> {
  return maybeOne(db, sql`
    SELECT r.requester_id, r.assigned_volunteer_id, r.status, r.client_id, ${caresFor(REQUESTER, viewerId)} AS viewer_is_carer
    FROM requests r WHERE r.id = ${id}`)
}

/** The caller's own requests, any status, newest first. */
/** A person's requests; without `withClients`, not those she asked for her clients as a coordinator (they are theirs, not hers). */
export function listByRequester (db: Queryable, requesterId: number, page: Page, withClients = true): Promise<ListItemRow[]> {
  return db.query<ListItemRow>(sql`
    SELECT ${LIST_ITEM_COLUMNS}
    FROM ${LIST_ITEM_FROM}
    WHERE r.requester_id = ${requesterId} AND (${withClients} OR r.client_id IS NULL)
    ORDER BY r.created_at DESC, r.id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/** A client's request as the coordinators' list reads it: the list item, its client, and the client's short name (null once erased). */
export interface CoordinatedRow extends ListItemRow {
  client_id: number
  client_name: string | null
  desired_completion_date: Date | null
  cancel_reason: CancelReason | null
  volunteer_first_name: string | null
  client_texts: Array<{ type: string, status: string, at: string }>
}

/**
 * Every client's request (docs/api/on-behalf.md › Coordinators and clients), in `status` when given, soonest needed first: by its window's start,
 * else the date it is wanted by, those without either last; then oldest first.
 */
export function listCoordinated (db: Queryable, status: RequestStatus | undefined, page: Page): Promise<CoordinatedRow[]> {
  return db.query<CoordinatedRow>(sql`
    SELECT ${LIST_ITEM_COLUMNS}, r.client_id, c.first_name || ' ' || left(c.last_name, 1) || '.' AS client_name,
      r.desired_completion_date, r.cancel_reason, (SELECT v.first_name FROM users v WHERE v.id = r.assigned_volunteer_id) AS volunteer_first_name,
      (SELECT coalesce(json_agg(json_build_object('type', n.type, 'status', d.status, 'at', coalesce(d.sent_at, d.created_at)) ORDER BY d.id), '[]'::json)
        FROM deliveries d JOIN notifications n ON n.id = d.notification_id WHERE d.client_id = r.client_id AND n.request_id = r.id) AS client_texts
    FROM ${LIST_ITEM_FROM}
      LEFT JOIN clients c ON c.id = r.client_id
    WHERE r.client_id IS NOT NULL ${status === undefined ? empty : sql`AND r.status = ${status}`}
    ORDER BY COALESCE(r.window_start, r.desired_completion_date) ASC NULLS LAST, r.created_at, r.id
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/** Whether they have a request in_progress as its requester (or client), and as its assigned volunteer. */
export function findInProgressRoles (db: Queryable, of: RequestsOf): Promise<{ as_requester: boolean, as_volunteer: boolean }> {
  return maybeOne<{ as_requester: boolean, as_volunteer: boolean }>(db, sql`
    SELECT
      EXISTS (SELECT 1 FROM requests r WHERE ${ownedBy(of)} AND r.status = 'in_progress') AS as_requester,
      EXISTS (SELECT 1 FROM requests WHERE assigned_volunteer_id = ${'requesterId' in of ? of.requesterId : null}::bigint AND status = 'in_progress') AS as_volunteer`)
    .then((row) => row ?? { as_requester: false, as_volunteer: false })
}

/**
 * Whether the request has an offer made at or before this transaction's start (now(), an offer's
 * responded_at), so an offer made in this transaction cannot be its first (first_offer_at); false for a
 * missing request too.
 */
export async function hasEarlierOffer (db: Queryable, id: number): Promise<boolean> {
  return (await maybeOne<{ earlier: boolean }>(db, sql`SELECT first_offer_at <= now() AS earlier FROM requests WHERE id = ${id}`))?.earlier ?? false
}

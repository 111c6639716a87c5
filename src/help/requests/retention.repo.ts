import type { Queryable } from '../../db/database.js'
import { raw, sql, type Sql } from '../../db/sql.js'
import { gridPoint, type GridPoint } from '../../lib/grid.js'

/**
 * The statements of docs/privacy.md that write `requests` (beside requests.repo.ts, which owns the row's life and would
 * pass 300 lines with them): the stored grid points, minimising finished requests after RETENTION_DAYS, and erasure's
 * cancels and minimising. Only the retention job (data-protection/privacy/retention.ts), erasure (privacy) and a
 * client's erasure (clients) run them.
 */

/**
 * Grid points (docs/privacy.md › The grid) of rows computed for another grid size, or never: at most `limit` of them, to be
 * recomputed by the service with src/lib/grid.ts. Three index conditions on requests_by_grid_meters.
 */
export function findStaleGridPoints (db: Queryable, gridMeters: number, limit: number): Promise<Array<{ id: number, latitude: number, longitude: number }>> {
  return db.query(sql`
    SELECT id, latitude, longitude FROM requests
    WHERE grid_meters IS NULL OR grid_meters < ${gridMeters} OR grid_meters > ${gridMeters}
    LIMIT ${limit}`)
}

export interface GridUpdate extends GridPoint { id: number }

/** Stores computed grid points, one statement for the batch. */
export async function storeGridPoints (db: Queryable, points: readonly GridUpdate[], gridMeters: number): Promise<void> {
  await db.query(sql`
    UPDATE requests r SET grid_latitude = p.latitude, grid_longitude = p.longitude, grid_meters = ${gridMeters}
    FROM unnest(${points.map((p) => p.id)}::bigint[], ${points.map((p) => p.latitude)}::float8[], ${points.map((p) => p.longitude)}::float8[])
      AS p (id, latitude, longitude)
    WHERE r.id = p.id`)
}

const FINISHED = raw("r.status IN ('completed', 'cancelled', 'rejected')")

/**
 * Up to `limit` requests finished more than `days` days ago and not yet minimised (docs/privacy.md › `RETENTION_DAYS`), locked
 * until the transaction ends; rows another transaction holds are skipped, so two instances running the
 * job at once never take the same row. Read by requests_to_minimise. `now`: the job's clock.
 */
export function lockExpiredRequests (db: Queryable, days: number, limit: number, now: Date): Promise<Array<{ id: number, latitude: number, longitude: number }>> {
  return db.query(sql`
    SELECT r.id, r.latitude, r.longitude FROM requests r
    WHERE r.minimised_at IS NULL AND ${FINISHED} AND r.finished_at < ${now}::timestamptz - make_interval(days => ${days})
    ORDER BY r.finished_at, r.id
    LIMIT ${limit}
    FOR NO KEY UPDATE SKIP LOCKED`)
}

/** Whose requests an erasure closes: a user's own (not her clients', which every coordinator acts on: docs/api/on-behalf.md › Coordinators and clients), or a client's. */
export type RequestsOf = { requesterId: number } | { clientId: number }
export const ownedBy = (of: RequestsOf): Sql =>
  'clientId' in of ? sql`r.client_id = ${of.clientId}` : sql`r.requester_id = ${of.requesterId} AND r.client_id IS NULL`

/** Their finished requests not yet minimised, locked in id order and minimised at once (erasure: docs/privacy.md › Erasure). */
export async function minimiseFinishedRequestsOf (db: Queryable, of: RequestsOf, gridMeters: number): Promise<void> {
  const finished = await db.query<{ id: number, latitude: number, longitude: number }>(sql`
    SELECT r.id, r.latitude, r.longitude FROM requests r
    WHERE ${ownedBy(of)} AND r.minimised_at IS NULL AND ${FINISHED}
    ORDER BY r.id
    FOR NO KEY UPDATE`)
  await minimiseRequests(db, finished.map((row) => ({ id: row.id, ...gridPoint(row.latitude, row.longitude, gridMeters) })), gridMeters)
}

/** The text that replaces personal data in a minimised request (docs/privacy.md › `RETENTION_DAYS`). */
export const REMOVED = '(removed)'

/**
 * Minimises finished requests (docs/privacy.md › `RETENTION_DAYS`): contact data, address and description become "(removed)",
 * the exact point becomes the given grid point. A contact field that was empty stays empty. The
 * `minimised_at IS NULL` and status conditions make it idempotent: a row is minimised once. Returns how many.
 */
export async function minimiseRequests (db: Queryable, points: readonly GridUpdate[], gridMeters: number): Promise<number> {
  if (points.length === 0) return 0
  const rows = await db.query(sql`
    UPDATE requests r SET
      contact_phone = CASE WHEN r.contact_phone IS NULL THEN NULL ELSE ${REMOVED} END,
      contact_notes = CASE WHEN r.contact_notes IS NULL THEN NULL ELSE ${REMOVED} END,
      address = ${REMOVED}, description = ${REMOVED},
      latitude = p.latitude, longitude = p.longitude,
      grid_latitude = p.latitude, grid_longitude = p.longitude, grid_meters = ${gridMeters},
      minimised_at = now()
    FROM unnest(${points.map((p) => p.id)}::bigint[], ${points.map((p) => p.latitude)}::float8[], ${points.map((p) => p.longitude)}::float8[])
      AS p (id, latitude, longitude)
    WHERE r.id = p.id AND r.minimised_at IS NULL AND ${FINISHED}
    RETURNING r.id`)
  return rows.length
}

/**
 * Erasure (docs/privacy.md › Erasure): their requests in pending_moderation or approved → cancelled, as one
 * conditional update (a concurrent accept either happened first, and the request stays in_progress, or
 * finds it cancelled). Returns the cancelled requests' ids and requesters.
 */
export async function cancelActiveRequestsOf (db: Queryable, of: RequestsOf): Promise<Array<{ id: number, requester_id: number }>> {
  return await db.query<{ id: number, requester_id: number }>(sql`
    UPDATE requests r SET status = 'cancelled', updated_at = now(), cancel_reason = 'requester'
    WHERE ${ownedBy(of)} AND r.status IN ('pending_moderation', 'approved')
    RETURNING r.id, r.requester_id`)
}

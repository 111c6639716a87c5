import type { Queryable } from '../../db/database.js'
import { sql, type Sql } from '../../db/sql.js'
import type { Page } from '../../lib/page.js'

/**
 * Owns `access_records` (docs/privacy.md › Access records: who has been shown someone's contact details). Written by the code
 * that reveals the data (requests/disclosure.ts, users.service.ts), in the answer's path; read by the two
 * access logs and the data export.
 */

export type AccessKind = 'request' | 'profile'
/** 'coordinator': any coordinator on a client's request but the one who created it (docs/api/on-behalf.md › Coordinators and clients); 'carer': someone the requester trusts (docs/api/on-behalf.md › Carers). */
export type ViewerRole = 'requester' | 'assigned volunteer' | 'moderator' | 'admin' | 'coordinator' | 'carer'
/** docs/privacy.md › Access records: `contact_phone`, `contact_notes`, `address` of a request; `phone`, `address` of a profile. */
export const ACCESS_FIELDS = ['contact_phone', 'contact_notes', 'address', 'phone'] as const
export type AccessField = typeof ACCESS_FIELDS[number]

/** One reveal: `viewerId` was shown `fields` of `ownerId`'s request `requestId` (or profile, with the shared request or null). */
export interface NewAccessRecord {
  kind: AccessKind
  viewerId: number
  ownerId: number
  requestId: number | null
  viewerRole: ViewerRole
  fields: readonly AccessField[]
}

/** A record as the logs show it. */
export interface AccessRecordRow {
  viewer_id: number
  viewer_name: string
  viewer_role: ViewerRole
  fields: AccessField[]
  at: Date
  request_id: number | null
}

/** A view within this long of the newest record of the same key moves that record's time instead of adding one. */
export const COALESCE_MINUTES = 10

/** A reveal and when it was shown. */
export interface TimedAccessRecord extends NewAccessRecord { at: Date }

/**
 * Writes reveals (of one answer or of several answers at once, see AccessRecorder) in as few statements as
 * the keys allow. A key (kind, viewer, owner, request, role, fields) has one row; ON CONFLICT makes concurrent
 * writes of one key queue on that row, and the CASE either moves the newest time (within COALESCE_MINUTES) or
 * appends a new one, so two simultaneous reads leave one record. One statement may not update a row twice: views
 * of one key within the window are merged first (the later time kept, as the row would), and any left apart go in
 * the next statement.
 */
export async function writeAccessRecords (db: Queryable, records: readonly TimedAccessRecord[]): Promise<void> {
  const byKey = new Map<string, TimedAccessRecord[]>()
  for (const record of [...records].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const key = JSON.stringify([record.kind, record.viewerId, record.ownerId, record.requestId, record.viewerRole, record.fields])
    const views = byKey.get(key) ?? []
    const last = views.at(-1)
    if (last !== undefined && record.at.getTime() - last.at.getTime() < COALESCE_MINUTES * 60_000) views[views.length - 1] = record
    else views.push(record)
    byKey.set(key, views)
  }
  for (let round = 0; byKey.size > 0; round++) {
    const rows: TimedAccessRecord[] = []
    for (const [key, views] of byKey) {
      rows.push(views[round]!)
      if (views.length === round + 1) byKey.delete(key)
    }
    await upsertRecords(db, rows)
  }
}

function upsertRecords (db: Queryable, rows: readonly TimedAccessRecord[]): Promise<unknown> {
  return db.query(sql`
    INSERT INTO access_records AS a (kind, viewer_id, owner_id, request_id, viewer_role, fields, ats, last_at)
    SELECT r.kind, r.viewer_id, r.owner_id, r.request_id, r.viewer_role, string_to_array(r.fields, ','), ARRAY[r.at], r.at
    FROM unnest(${rows.map((r) => r.kind)}::text[], ${rows.map((r) => r.viewerId)}::bigint[], ${rows.map((r) => r.ownerId)}::bigint[],
      ${rows.map((r) => r.requestId)}::bigint[], ${rows.map((r) => r.viewerRole)}::text[], ${rows.map((r) => r.fields.join(','))}::text[],
      ${rows.map((r) => r.at)}::timestamptz[])
      AS r (kind, viewer_id, owner_id, request_id, viewer_role, fields, at)
    ON CONFLICT (kind, owner_id, (COALESCE(request_id, 0)), viewer_id, viewer_role, fields) DO UPDATE SET
      ats = CASE WHEN a.last_at > EXCLUDED.last_at - make_interval(mins => ${COALESCE_MINUTES})
        THEN a.ats[1:array_upper(a.ats, 1) - 1] || greatest(a.last_at, EXCLUDED.last_at)
        ELSE a.ats || EXCLUDED.last_at END,
      last_at = greatest(a.last_at, EXCLUDED.last_at)`)
}

/** Records matching `where` (on access_records `a`), one per time, newest first, with the viewer's name as it is now. */
function listRecords (db: Queryable, where: Sql, page: Page): Promise<AccessRecordRow[]> {
  return db.query<AccessRecordRow>(sql`
    SELECT a.viewer_id, u.first_name || ' ' || u.last_name AS viewer_name, a.viewer_role, a.fields, t.at, a.request_id
    FROM access_records a CROSS JOIN LATERAL unnest(a.ats) AS t (at) JOIN users u ON u.id = a.viewer_id
    WHERE ${where}
    ORDER BY t.at DESC, a.id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/** The records of one request's contact details (its requester is their owner: the key's prefix finds them), newest first. */
export const listRequestRecords = (db: Queryable, request: { id: number, requester_id: number }, page: Page): Promise<AccessRecordRow[]> =>
  listRecords(db, sql`a.kind = 'request' AND a.owner_id = ${request.requester_id} AND COALESCE(a.request_id, 0) = ${request.id}`, page)

/** The records of one user's profile contact details, newest first. */
export const listProfileRecords = (db: Queryable, ownerId: number, page: Page): Promise<AccessRecordRow[]> =>
  listRecords(db, sql`a.kind = 'profile' AND a.owner_id = ${ownerId}`, page)

/** For the export (docs/privacy.md › Erasure): every record of the user's data, both kinds, oldest first; other people by id only. */
export function exportAccessRecords (db: Queryable, ownerId: number): Promise<Array<Record<string, unknown>>> {
  return db.query(sql`
    SELECT a.kind, a.request_id, a.viewer_id, a.viewer_role, a.fields, t.at
    FROM access_records a CROSS JOIN LATERAL unnest(a.ats) AS t (at)
    WHERE a.owner_id = ${ownerId}
    ORDER BY t.at, a.id`)
}

/** Erasure: the records of the user's own profile data (their log), which nobody else reads. */
export async function deleteProfileRecordsOf (db: Queryable, ownerId: number): Promise<void> {
  await db.query(sql`DELETE FROM access_records WHERE kind = 'profile' AND owner_id = ${ownerId}`)
}

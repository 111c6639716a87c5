import { maybeOne, type Queryable } from '../../db/database.js'
import { raw, sql } from '../../db/sql.js'
import type { GridPoint } from '../../lib/grid.js'
import type { NeedCode } from '../needs/needs.js'
import type { RequestStatus, Urgency } from './requests.values.js'
import { ACTIVE, type LocatedRow } from './search/shared.js'

/**
 * Owns the `requests` table: every statement that writes a request row is in this file, whichever
 * module's service runs it (requests: create and cancel; moderation: approve and reject; responses:
 * assign, unassign and complete; series: occurrences created and cancelled), so the row's state changes can be read, and their conditions
 * checked, in one place. The searches, which only read, are in search/, the other reads in requests.reads.ts. See src/README.md.
 */

/** Every column of a RequestRow, on `requests r`. */
export const REQUEST_COLUMNS = raw(`r.id, r.requester_id, r.request_type_id, r.assigned_volunteer_id, r.title, r.description,
  r.address, r.city, r.desired_completion_date, r.urgency, r.status, r.contact_phone, r.contact_notes,
  r.created_at, r.updated_at, r.window_start, r.window_end, r.series_id, r.return_of, r.confirmed_at, r.cancel_reason, r.client_id,
  r.needs, r.languages`)

/** A request row as REQUEST_COLUMNS reads it. */
export interface RequestRow {
  id: number
  requester_id: number
  request_type_id: number
  assigned_volunteer_id: number | null
  title: string
  description: string
  address: string
  city: string | null
  desired_completion_date: Date | null
  urgency: Urgency
  status: RequestStatus
  contact_phone: string | null
  contact_notes: string | null
  created_at: Date
  updated_at: Date
  window_start: Date | null
  window_end: Date | null
  series_id: number | null
  return_of: number | null
  confirmed_at: Date | null
  cancel_reason: CancelReason | null
  client_id: number | null
  /** docs/api/visits.md › Needs and matching: codes, in the table's order, and ISO 639-1 codes. */
  needs: NeedCode[]
  languages: string[]
}

/** Why a request was cancelled (docs/api/schedule.md › Confirmation, reminders, expiry). */
export type CancelReason = 'requester' | 'moderator' | 'expired' | 'series_changed'

/** A user as json_build_object gives it in a detail row (userInfo). */
export interface UserInfoJson { id: number, email: string, first_name: string, last_name: string, email_verified: boolean }

/** The detail row: the request, its parties and type as JSON, and the columns its `location` is made from. */
export interface DetailRow extends RequestRow, LocatedRow {
  requester: UserInfoJson
  request_type: { id: number, name: string, description: string | null, icon: string | null, is_active: boolean, default_needs: NeedCode[] }
  assigned_volunteer: UserInfoJson | null
  /** docs/api/on-behalf.md › Coordinators and clients: whom a client's request is for; null for others' requests and once the client is erased. */
  client: { id: number, first_name: string, last_name: string, needs: string | null } | null
  /** Whether the viewer it was read for is the requester's carer (docs/api/on-behalf.md › Carers; visibility.ts). */
  viewer_is_carer: boolean
  /** Whether the viewer meets its needs (docs/api/visits.md › Needs and matching); null when the viewer does not offer help. */
  suitable: boolean | null
}

/** What a request is created from: the caller's answers, already checked. */
export interface NewRequest {
  request_type_id: number
  title: string
  description: string
  latitude: number
  longitude: number
  address: string
  city?: string | undefined
  desired_completion_date?: string | null | undefined
  window_start?: string | undefined
  window_end?: string | undefined
  urgency: Urgency
  contact_phone?: string | undefined
  contact_notes?: string | undefined
  /** Checked and completed by needs-input.ts resolveNeeds; a series' template stored before them has neither (none). */
  needs?: readonly NeedCode[] | undefined
  languages?: readonly string[] | undefined
}

/** Who a new request was asked for (docs/api/on-behalf.md): a client of the coordinators, or by a carer for the requester. */
export interface RequestOrigin { clientId: number | null, carerId: number | null }
/** A request asked by its requester for herself. */
export const OWN_REQUEST: RequestOrigin = { clientId: null, carerId: null }

/**
 * The new request, or undefined when `request_type_id` names no active type: the check and the insert are
 * one statement, so creating a request costs one round trip.
 */
export function insertRequest (db: Queryable, requesterId: number, input: NewRequest, grid: GridPoint, gridMeters: number, origin: RequestOrigin = OWN_REQUEST): Promise<RequestRow | undefined> {
  return maybeOne<RequestRow>(db, sql`
    INSERT INTO requests AS r (requester_id, request_type_id, title, description, latitude, longitude, address, city,
      desired_completion_date, window_start, window_end, urgency, contact_phone, contact_notes, grid_latitude, grid_longitude, grid_meters,
      client_id, created_by_carer, needs, languages)
    SELECT ${requesterId}::bigint, t.id, ${input.title}::text, ${input.description}::text, ${input.latitude}::float8, ${input.longitude}::float8,
      ${input.address}::text, ${input.city ?? null}::text, ${input.desired_completion_date ?? null}::timestamptz,
      ${input.window_start ?? null}::timestamptz, ${input.window_end ?? null}::timestamptz, ${input.urgency}::text,
      ${input.contact_phone ?? null}::text, ${input.contact_notes ?? null}::text, ${grid.latitude}::float8, ${grid.longitude}::float8, ${gridMeters}::integer,
      ${origin.clientId}::bigint, ${origin.carerId}::bigint, ${[...input.needs ?? []]}::text[], ${[...input.languages ?? []]}::text[]
    FROM request_types t WHERE t.id = ${input.request_type_id}::bigint AND t.is_active
    RETURNING ${REQUEST_COLUMNS}`)
}

/** An occurrence of an approved series (docs/api/schedule.md › Series): the template's request at one window. */
export interface NewOccurrence extends Omit<NewRequest, 'desired_completion_date' | 'window_start' | 'window_end'> {
  series_id: number
  requester_id: number
  window_start: Date
  window_end: Date
  /** A return trip's outbound start: return_of is the occurrence starting then. */
  outbound_start: Date | null
  moderated_by: number | null
  moderated_at: Date | null
  origin: RequestOrigin
}

/**
 * An occurrence, already approved and moderated as its series was; its id and outbound trip's, or undefined when the series
 * has one at that start already (requests_one_occurrence), so instances and reruns create each once.
 */
export async function insertOccurrence (db: Queryable, o: NewOccurrence, grid: GridPoint, gridMeters: number): Promise<{ id: number, return_of: number | null } | undefined> {
  return await maybeOne<{ id: number, return_of: number | null }>(db, sql`
    INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, city, desired_completion_date,
      window_start, window_end, urgency, contact_phone, contact_notes, grid_latitude, grid_longitude, grid_meters, status, moderated_by,
      moderated_at, series_id, return_of, client_id, created_by_carer, needs, languages)
    VALUES (${o.requester_id}, ${o.request_type_id}, ${o.title}, ${o.description}, ${o.latitude}, ${o.longitude}, ${o.address}, ${o.city ?? null},
      ${o.window_end}, ${o.window_start}, ${o.window_end}, ${o.urgency}, ${o.contact_phone ?? null}, ${o.contact_notes ?? null},
      ${grid.latitude}, ${grid.longitude}, ${gridMeters}, 'approved', ${o.moderated_by}, ${o.moderated_at}, ${o.series_id},
      (SELECT id FROM requests WHERE series_id = ${o.series_id} AND window_start = ${o.outbound_start}::timestamptz
        AND cancel_reason IS DISTINCT FROM 'series_changed'), ${o.origin.clientId}::bigint, ${o.origin.carerId}::bigint,
      ${[...o.needs ?? []]}::text[], ${[...o.languages ?? []]}::text[])
    ON CONFLICT (series_id, window_start) WHERE series_id IS NOT NULL AND cancel_reason IS DISTINCT FROM 'series_changed' DO NOTHING
    RETURNING id, return_of`)
}

/**
 * Occurrences → cancelled with `reason`, those still in one of `statuses` (a concurrent accept either came
 * first and keeps its request, or finds it cancelled); the cancelled ones' ids.
 */
export async function cancelOccurrences (db: Queryable, ids: readonly number[], statuses: readonly RequestStatus[], reason: CancelReason): Promise<number[]> {
  if (ids.length === 0) return []
  const rows = await db.query<{ id: number }>(sql`
    UPDATE requests SET status = 'cancelled', cancel_reason = ${reason}, updated_at = now()
    WHERE id = ANY (${ids}::bigint[]) AND status = ANY (${statuses}::text[])
    RETURNING id`)
  return rows.map((row) => row.id)
}

/**
 * Active → cancelled, if the caller is the requester or `asModerator`: one conditional update, so a
 * cancel racing another change either wins or changes nothing.
 */
export function cancelRequest (db: Queryable, id: number, reason: 'requester' | 'moderator'): Promise<RequestRow | undefined> {
  return maybeOne<RequestRow>(db, sql`
    UPDATE requests AS r SET status = 'cancelled', updated_at = now(), cancel_reason = ${reason}
    WHERE r.id = ${id} AND ${ACTIVE}
    RETURNING ${REQUEST_COLUMNS}`)
}

/**
 * pending_moderation → approved or rejected, as one conditional update recording who, when and why; the
 * requester's id (to be told). Undefined means the request is missing, the moderator's own, or not pending
 * (the caller tells which).
 */
export async function moderateRequest (db: Queryable, id: number, moderatorId: number, status: 'approved' | 'rejected', comment: string | null): Promise<number | undefined> {
  const rows = await db.query<{ requester_id: number }>(sql`
    UPDATE requests SET status = ${status}, moderated_by = ${moderatorId}, moderated_at = now(), moderation_comment = ${comment}, updated_at = now()
    WHERE id = ${id} AND status = 'pending_moderation' AND requester_id <> ${moderatorId}
    RETURNING requester_id`)
  return rows[0]?.requester_id
}

export interface LockedRequest { id: number, requester_id: number, assigned_volunteer_id: number | null, status: RequestStatus, client_id: number | null }

/**
 * The request, locked until the transaction ends: 'share' lets volunteers respond side by side while
 * keeping out a concurrent accept; 'update' serialises everything else on the request.
 * `FOR NO KEY UPDATE` rather than `FOR UPDATE`: the key never changes, and inserts referencing the
 * row (responses, ratings) need not wait.
 */
export function lockRequest (db: Queryable, id: number, mode: 'share' | 'update'): Promise<LockedRequest | undefined> {
  const lock = raw(mode === 'share' ? 'FOR SHARE' : 'FOR NO KEY UPDATE')
  return maybeOne<LockedRequest>(db, sql`
    SELECT id, requester_id, assigned_volunteer_id, status, client_id FROM requests WHERE id = ${id} ${lock}`)
}

/**
 * approved → in_progress with the volunteer assigned, or back: in_progress → approved with nobody assigned.
 * A confirmation (docs/api/schedule.md › Confirmation, reminders, expiry) belongs to one assignment, so either way it is cleared. For the reports
 * (docs/api/on-behalf.md › Reports for funders): assigned_at is the accepted response's accepted_at (the same now()), first_accepted_at the earliest.
 */
export async function setAssignment (db: Queryable, requestId: number, volunteerId: number | null): Promise<void> {
  await db.query(sql`
    UPDATE requests SET status = CASE WHEN ${volunteerId}::bigint IS NULL THEN 'approved' ELSE 'in_progress' END,
      assigned_volunteer_id = ${volunteerId}, confirmed_at = NULL, updated_at = now(),
      assigned_at = CASE WHEN ${volunteerId}::bigint IS NULL THEN NULL ELSE now() END,
      first_accepted_at = CASE WHEN ${volunteerId}::bigint IS NULL THEN first_accepted_at ELSE LEAST(first_accepted_at, now()) END
    WHERE id = ${requestId}`)
}

/**
 * An offer made in this transaction (responded_at is its now()): first_offer_at stays the earliest of the
 * request's offers, for the reports (docs/api/on-behalf.md › Reports for funders). The caller holds the row's lock for update.
 */
export async function markOffered (db: Queryable, requestId: number): Promise<void> {
  await db.query(sql`UPDATE requests SET first_offer_at = now() WHERE id = ${requestId} AND (first_offer_at IS NULL OR first_offer_at > now())`)
}

/** in_progress → completed; the caller holds the row's lock and has checked the status. */
export async function markCompleted (db: Queryable, requestId: number): Promise<void> {
  await db.query(sql`
    UPDATE requests SET status = 'completed', updated_at = now() WHERE id = ${requestId}`)
}

import { maybeOne, type Queryable } from '../../db/database.js'
import { raw, sql } from '../../db/sql.js'
import type { CheckKind } from '../../lib/checks.js'
import type { Page } from '../../lib/page.js'
import { holdsChecks } from '../../accounts/checks/checks.repo.js'
import type { Day, Pattern } from './recurrence.js'
import type { Series, SeriesStatus, SeriesTemplate } from './series.schemas.js'

/**
 * Owns `request_series` (docs/api/schedule.md › Series): every statement that writes a series is here. Its occurrences
 * are requests, written by requests.repo.ts; this file only reads them. Lock order: a change to a series
 * locks its row here first, then its occurrences (src/README.md).
 */

const SERIES_COLUMNS = raw(`s.id, s.requester_id, s.template, s.days, s.start_time, s.duration_minutes, s.every_weeks,
  s.starts_on::text AS starts_on, s.ends_on::text AS ends_on, s.return_time, s.time_zone, s.preferred_volunteer_id, s.status,
  s.moderated_by, s.moderated_at, s.created_at, s.updated_at, s.client_id, s.created_by_carer`)

export interface SeriesRow {
  id: number
  requester_id: number
  /** As stored: auto_accept_preferred always set (the input's default). */
  template: Series['template']
  days: Day[]
  start_time: string
  duration_minutes: number
  every_weeks: number
  starts_on: string
  ends_on: string | null
  return_time: string | null
  time_zone: string
  preferred_volunteer_id: number | null
  status: SeriesStatus
  moderated_by: number | null
  moderated_at: Date | null
  created_at: Date
  updated_at: Date
  /** docs/api/on-behalf.md › Series for someone: the client asked for, or the carer who asked for the requester. */
  client_id: number | null
  created_by_carer: number | null
}

/** What a series is made of, checked; the template as stored, without whom it is asked for (the row's columns say it). */
export interface SeriesFields extends Pattern {
  template: Omit<SeriesTemplate, 'on_behalf_of'>
}

/** For whom a series is asked: the client, or the carer who asked for the requester (both null: her own). */
export interface SeriesOrigin { clientId: number | null, carerId: number | null }

export function insertSeries (db: Queryable, requesterId: number, fields: SeriesFields, at: Date, origin: SeriesOrigin): Promise<SeriesRow> {
  return maybeOne<SeriesRow>(db, sql`
    INSERT INTO request_series AS s (requester_id, template, days, start_time, duration_minutes, every_weeks, starts_on, ends_on,
      return_time, time_zone, created_at, updated_at, client_id, created_by_carer)
    VALUES (${requesterId}, ${JSON.stringify(fields.template)}::jsonb, ${fields.days}::text[], ${fields.start_time}, ${fields.duration_minutes},
      ${fields.every_weeks}, ${fields.starts_on}::date, ${fields.ends_on}::date, ${fields.return_time}, ${fields.time_zone}, ${at}, ${at},
      ${origin.clientId}::bigint, ${origin.carerId}::bigint)
    RETURNING ${SERIES_COLUMNS}`) as Promise<SeriesRow>
}

export function findSeries (db: Queryable, id: number): Promise<SeriesRow | undefined> {
  return maybeOne<SeriesRow>(db, sql`SELECT ${SERIES_COLUMNS} FROM request_series s WHERE s.id = ${id}`)
}

/** The series, locked until the transaction ends: the first lock of every change to it or its occurrences. */
export function lockSeries (db: Queryable, id: number): Promise<SeriesRow | undefined> {
  return maybeOne<SeriesRow>(db, sql`SELECT ${SERIES_COLUMNS} FROM request_series s WHERE s.id = ${id} FOR NO KEY UPDATE`)
}

/** Whose series: the requester's (a coordinator's client series too); a person's for her carer (none of those); a client's, by anyone. */
export type SeriesOf = { requesterId: number } | { personId: number } | { clientId: number }

/** The series of `of`, newest first; every one without `page` (the export). */
export function listSeriesOf (db: Queryable, of: SeriesOf, page?: Page): Promise<SeriesRow[]> {
  const where = 'clientId' in of
    ? sql`s.client_id = ${of.clientId}`
    : 'personId' in of ? sql`s.requester_id = ${of.personId} AND s.client_id IS NULL` : sql`s.requester_id = ${of.requesterId}`
  return db.query<SeriesRow>(sql`
    SELECT ${SERIES_COLUMNS} FROM request_series s WHERE ${where}
    ORDER BY s.created_at DESC, s.id DESC LIMIT ${page?.limit ?? null}::bigint OFFSET ${page?.offset ?? 0}`)
}

/** Series awaiting moderation, oldest first, but the moderator's own (nobody moderates their own). */
export function listPending (db: Queryable, moderatorId: number, page: Page): Promise<SeriesRow[]> {
  return db.query<SeriesRow>(sql`
    SELECT ${SERIES_COLUMNS} FROM request_series s WHERE s.status = 'pending_moderation' AND s.requester_id <> ${moderatorId}
    ORDER BY s.created_at, s.id LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/** A locked series' new fields and status (starts_on and time_zone never change). */
export async function updateSeries (db: Queryable, id: number, fields: SeriesFields, status: SeriesStatus, at: Date): Promise<SeriesRow> {
  return await maybeOne<SeriesRow>(db, sql`
    UPDATE request_series s SET template = ${JSON.stringify(fields.template)}::jsonb, days = ${fields.days}::text[], start_time = ${fields.start_time},
      duration_minutes = ${fields.duration_minutes}, every_weeks = ${fields.every_weeks}, ends_on = ${fields.ends_on}::date,
      return_time = ${fields.return_time}, status = ${status}, updated_at = ${at}
    WHERE s.id = ${id}
    RETURNING ${SERIES_COLUMNS}`) as SeriesRow
}

/** pending_moderation → active or rejected, by someone other than its requester; undefined when it was not so. */
export function moderateSeries (db: Queryable, id: number, moderatorId: number, status: 'active' | 'rejected', comment: string | null, at: Date): Promise<SeriesRow | undefined> {
  return maybeOne<SeriesRow>(db, sql`
    UPDATE request_series s SET status = ${status}, moderated_by = ${moderatorId}, moderated_at = ${at}, moderation_comment = ${comment}, updated_at = ${at}
    WHERE s.id = ${id} AND s.status = 'pending_moderation' AND s.requester_id <> ${moderatorId}
    RETURNING ${SERIES_COLUMNS}`)
}

/** Any status but ended → ended; undefined when already ended. */
export function endSeries (db: Queryable, id: number, at: Date): Promise<SeriesRow | undefined> {
  return maybeOne<SeriesRow>(db, sql`
    UPDATE request_series s SET status = 'ended', updated_at = ${at} WHERE s.id = ${id} AND s.status <> 'ended'
    RETURNING ${SERIES_COLUMNS}`)
}

/**
 * Erasure (docs/privacy.md › Erasure): the user's series → ended, so the horizon job makes no more occurrences; run
 * before their requests are cancelled, keeping the lock order (series, then requests). Returns the series
 * not yet minimised, with their template's point, for minimiseSeries.
 */
export function endSeriesOf (db: Queryable, requesterId: number, at: Date): Promise<SeriesPoint[]> {
  return db.query<SeriesPoint>(sql`
    UPDATE request_series s SET status = 'ended', updated_at = ${at}
    WHERE s.requester_id = ${requesterId} AND s.client_id IS NULL
    RETURNING s.id, (s.template->>'latitude')::float8 AS latitude, (s.template->>'longitude')::float8 AS longitude, s.minimised_at`)
    .then((rows) => rows.filter((row) => row.minimised_at === null))
}

/**
 * A client's erasure (docs/api/on-behalf.md › Series for someone): their series → ended, before their requests are
 * cancelled (series, then requests); those not yet minimised, as endSeriesOf returns them.
 */
export function endSeriesOfClient (db: Queryable, clientId: number, at: Date): Promise<SeriesPoint[]> {
  return db.query<SeriesPoint>(sql`
    UPDATE request_series s SET status = 'ended', updated_at = ${at}
    WHERE s.client_id = ${clientId}
    RETURNING s.id, (s.template->>'latitude')::float8 AS latitude, (s.template->>'longitude')::float8 AS longitude, s.minimised_at`)
    .then((rows) => rows.filter((row) => row.minimised_at === null))
}

/** A finished series' id and its template's exact point. */
export interface SeriesPoint { id: number, latitude: number, longitude: number, minimised_at?: Date | null }

/** Retention (docs/privacy.md › `RETENTION_DAYS`): series ended or rejected more than `days` before `now`, not minimised, locked. */
export function lockFinishedSeries (db: Queryable, days: number, limit: number, now: Date): Promise<SeriesPoint[]> {
  return db.query<SeriesPoint>(sql`
    SELECT s.id, (s.template->>'latitude')::float8 AS latitude, (s.template->>'longitude')::float8 AS longitude FROM request_series s
    WHERE s.status IN ('ended', 'rejected') AND s.minimised_at IS NULL AND s.updated_at < ${now}::timestamptz - make_interval(days => ${days})
    ORDER BY s.updated_at, s.id
    LIMIT ${limit}
    FOR NO KEY UPDATE SKIP LOCKED`)
}

/**
 * Minimises finished series' templates as finished requests are (docs/privacy.md › `RETENTION_DAYS`): address, description and
 * the contact details given become `removed`, the exact point the given grid point. Once per series.
 */
export async function minimiseSeries (db: Queryable, points: ReadonlyArray<{ id: number, latitude: number, longitude: number }>, removed: string): Promise<number> {
  if (points.length === 0) return 0
  const rows = await db.query(sql`
    UPDATE request_series s SET minimised_at = now(),
      template = s.template || jsonb_build_object('address', ${removed}::text, 'description', ${removed}::text, 'latitude', p.latitude, 'longitude', p.longitude)
        || CASE WHEN s.template ? 'contact_phone' THEN jsonb_build_object('contact_phone', ${removed}::text) ELSE '{}'::jsonb END
        || CASE WHEN s.template ? 'contact_notes' THEN jsonb_build_object('contact_notes', ${removed}::text) ELSE '{}'::jsonb END
    FROM unnest(${points.map((p) => p.id)}::bigint[], ${points.map((p) => p.latitude)}::float8[], ${points.map((p) => p.longitude)}::float8[])
      AS p (id, latitude, longitude)
    WHERE s.id = p.id AND s.minimised_at IS NULL AND s.status IN ('ended', 'rejected')
    RETURNING s.id`)
  return rows.length
}

/** The horizon job's progress: every occurrence starting before `until` exists. */
export async function setCreatedUntil (db: Queryable, id: number, until: Date | null): Promise<void> {
  await db.query(sql`UPDATE request_series SET created_until = ${until}::timestamptz WHERE id = ${id}`)
}

/**
 * One active series whose occurrences are not yet created up to `until`, locked; series another instance
 * holds are skipped (SKIP LOCKED), as are `skip` (those that failed in this run). Read by request_series_active.
 */
export function claimDueSeries (db: Queryable, until: Date, skip: readonly number[]): Promise<SeriesRow | undefined> {
  return maybeOne<SeriesRow>(db, sql`
    SELECT ${SERIES_COLUMNS} FROM request_series s
    WHERE s.status = 'active' AND (s.created_until IS NULL OR s.created_until < ${until}::timestamptz) AND s.id <> ALL (${skip}::bigint[])
    ORDER BY s.created_until NULLS FIRST, s.id
    LIMIT 1
    FOR NO KEY UPDATE SKIP LOCKED`)
}

/** The requester's language (`users.locale`), for the words the service writes into her occurrences. */
export async function requesterLocale (db: Queryable, userId: number): Promise<'en' | 'de'> {
  return (await maybeOne<{ locale: 'en' | 'de' }>(db, sql`SELECT locale FROM users WHERE id = ${userId}`))?.locale ?? 'en'
}

/** A created occurrence of a series (a request row), as a change to the series needs it. */
export interface OccurrenceRow {
  id: number
  window_start: Date
  window_end: Date
  return_of: number | null
  status: string
}

/** The series' occurrences starting after `after`, but those replaced by a change (series_changed), oldest first. */
export function listComingOccurrences (db: Queryable, seriesId: number, after: Date): Promise<OccurrenceRow[]> {
  return db.query<OccurrenceRow>(sql`
    SELECT r.id, r.window_start, r.window_end, r.return_of, r.status FROM requests r
    WHERE r.series_id = ${seriesId} AND r.window_start > ${after}::timestamptz AND r.cancel_reason IS DISTINCT FROM 'series_changed'
    ORDER BY r.window_start, r.id`)
}

/*
 * The same volunteer again (docs/api/schedule.md › Series). The preferred volunteer moves in the reactions of
 * series.reactions.ts, which run after their change locked the occurrence. Completion and withdrawal lock
 * the occurrence's series first (lockSeriesOfRequest), as every change here does; other changes that
 * record those events (an erasure, a missed confirmation) have not, so the statements pass over a series
 * locked by someone else (SKIP LOCKED) instead of waiting for it, which could deadlock with a change to
 * the series waiting for the occurrence (src/README.md).
 */

/** The series of a request, as a subquery. */
const seriesOf = (requestId: number) => sql`SELECT q.series_id FROM requests q WHERE q.id = ${requestId}::bigint`

/** The request's series, if any, locked: taken before the request by a change that may move its preferred volunteer. */
export async function lockSeriesOfRequest (db: Queryable, requestId: number): Promise<void> {
  await db.query(sql`SELECT s.id FROM request_series s WHERE s.id = (${seriesOf(requestId)}) FOR NO KEY UPDATE`)
}

/**
 * A completed occurrence's rating: 4 or 5 makes its volunteer the series' preferred one, 1..3 clears them
 * if they were. The series whose preferred volunteer was cleared.
 */
export async function preferAfterRating (db: Queryable, requestId: number, volunteerId: number, rating: number): Promise<number[]> {
  const good = rating >= 4
  const rows = await db.query<{ id: number }>(sql`
    UPDATE request_series s SET preferred_volunteer_id = ${good ? volunteerId : null}::bigint
    WHERE s.id IN (SELECT id FROM request_series WHERE id = (${seriesOf(requestId)})
      AND (${good}::boolean OR preferred_volunteer_id = ${volunteerId}::bigint) FOR NO KEY UPDATE SKIP LOCKED)
    RETURNING s.id`)
  return good ? [] : rows.map((row) => Number(row.id))
}

/** The volunteer of a response on an occurrence withdrew: no longer the series' preferred one. The series cleared. */
export async function unpreferAfterWithdrawal (db: Queryable, requestId: number, responseId: number): Promise<number[]> {
  const volunteer = sql`SELECT r.volunteer_id FROM volunteer_responses r WHERE r.id = ${responseId}::bigint`
  const rows = await db.query<{ id: number }>(sql`
    UPDATE request_series s SET preferred_volunteer_id = NULL
    WHERE s.id IN (SELECT id FROM request_series WHERE id = (${seriesOf(requestId)})
      AND preferred_volunteer_id = (${volunteer}) FOR NO KEY UPDATE SKIP LOCKED)
    RETURNING s.id`)
  return rows.map((row) => Number(row.id))
}

/**
 * A concern (docs/api/help.md › Concerns) about a preferred volunteer clears them in every series: its subject, or, for a
 * concern naming no one, the volunteer assigned to the occurrence it is about. The series cleared. A
 * concern locks no occurrence, so this waits for the series' locks (in id order) rather than pass them over.
 */
export async function unpreferAfterConcern (db: Queryable, concernId: number): Promise<number[]> {
  const concern = sql`SELECT c.subject_user_id, q.series_id, q.assigned_volunteer_id
    FROM concerns c LEFT JOIN requests q ON q.id = c.request_id WHERE c.id = ${concernId}::bigint`
  const rows = await db.query<{ id: number }>(sql`
    WITH c AS MATERIALIZED (${concern})
    UPDATE request_series s SET preferred_volunteer_id = NULL
    WHERE s.id IN (SELECT t.id FROM request_series t, c
      WHERE t.preferred_volunteer_id = c.subject_user_id
        OR (c.subject_user_id IS NULL AND t.id = c.series_id AND t.preferred_volunteer_id = c.assigned_volunteer_id)
      ORDER BY t.id FOR NO KEY UPDATE OF t)
    RETURNING s.id`)
  return rows.map((row) => Number(row.id))
}

/**
 * The series' preferred volunteer, if they may be invited now: not blocked or erased, allowed to offer
 * help, holding the checks VOLUNTEER_CHECKS requires on `today` (docs/api/accounts.md › Checks that vet volunteers), as an offer needs.
 */
export async function findInvitee (db: Queryable, seriesId: number, checks: readonly CheckKind[], today: string): Promise<number | undefined> {
  const row = await maybeOne<{ id: number }>(db, sql`
    SELECT u.id FROM request_series s JOIN users u ON u.id = s.preferred_volunteer_id
    WHERE s.id = ${seriesId} AND NOT u.is_blocked AND u.erased_at IS NULL
      AND EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
        JOIN permissions p ON p.id = rp.permission_id WHERE ur.user_id = u.id AND p.name = 'respond_request')
      AND ${holdsChecks(raw('u.id'), checks, today)}`)
  return row === undefined ? undefined : Number(row.id)
}

/** Whether the volunteer is the preferred one of the request's series and its template accepts their offers. */
export async function autoAcceptsPreferred (db: Queryable, requestId: number, volunteerId: number): Promise<boolean> {
  const row = await maybeOne<{ yes: boolean }>(db, sql`
    SELECT true AS yes FROM request_series s
    WHERE s.id = (${seriesOf(requestId)}) AND s.preferred_volunteer_id = ${volunteerId}::bigint
      AND coalesce((s.template ->> 'auto_accept_preferred')::boolean, false)`)
  return row !== undefined
}

/** The preferred volunteer of the request's series; undefined for a request of no series. */
export function findPreferredOf (db: Queryable, requestId: number): Promise<{ series_id: number, preferred_volunteer_id: number | null } | undefined> {
  return maybeOne(db, sql`SELECT s.id AS series_id, s.preferred_volunteer_id FROM request_series s WHERE s.id = (${seriesOf(requestId)})`)
}

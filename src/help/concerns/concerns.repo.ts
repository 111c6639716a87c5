import { maybeOne, one, type Queryable } from '../../db/database.js'
import { sql, type Sql } from '../../db/sql.js'
import type { Page } from '../../lib/page.js'
import { ADMIN_ROLE_ID, MODERATOR_ROLE_ID } from '../../accounts/roles/roles.repo.js'
import type { ConcernKind, ConcernOutcome, ConcernStatus } from './concerns.schemas.js'

/**
 * The one writer of `concerns` (docs/api/help.md › Concerns). Who may see a concern is decided here, in SQL, so that the
 * queue, a resolution and the `concern_raised` recipients apply one rule:
 *
 * the people a concern is about are its subject and, when it names a request, that request's requester
 * and assigned volunteer (a worry about a request is a worry about someone in it), the reporter left out.
 * Nobody sees a concern about themselves, and one about a moderator or admin only admins see.
 */

export interface OwnConcernRow {
  id: number
  /** Null for a concern the service raised (kind `visit_overdue`, docs/api/visit-checks.md). */
  reporter_id: number | null
  kind: ConcernKind
  subject_user_id: number | null
  request_id: number | null
  text: string
  urgent: boolean
  status: ConcernStatus
  outcome: ConcernOutcome | null
  created_at: Date
  resolved_at: Date | null
  resolved_by: number | null
}
export interface ConcernRow extends OwnConcernRow {
  outcome_note: string | null
  reporter_name: string | null
  subject_name: string | null
  request_title: string | null
}

export interface NewConcern { reporterId: number | null, subjectUserId: number | null, requestId: number | null, text: string, urgent: boolean, at: Date, kind?: ConcernKind }
/** Who looks at the moderators' side: their id, and whether they are an admin. */
export interface ConcernViewer { id: number, isAdmin: boolean }

const OWN_COLUMNS = sql`k.id, k.reporter_id, k.kind, k.subject_user_id, k.request_id, k.text, k.urgent, k.status, k.outcome, k.created_at, k.resolved_at, k.resolved_by`

/** A concern with the request it names and `about.ids`: the people it is about (above). */
const WITH_ABOUT = sql`
  concerns k
  LEFT JOIN requests r ON r.id = k.request_id
  CROSS JOIN LATERAL (
    SELECT array_remove(array_remove(ARRAY[k.subject_user_id, r.requester_id, r.assigned_volunteer_id], NULL), k.reporter_id) AS ids
  ) about`

/** Whether some of the people the concern is about hold the moderator or admin role. */
const ABOUT_STAFF = sql`EXISTS (SELECT 1 FROM user_roles s WHERE s.user_id = ANY(about.ids) AND s.role_id IN (${MODERATOR_ROLE_ID}, ${ADMIN_ROLE_ID}))`

/** The rule above for one moderator or admin (the caller is one: the routes let no one else in). */
function visibleTo (viewer: ConcernViewer): Sql {
  return sql`NOT (${viewer.id}::bigint = ANY(about.ids)) AND (${viewer.isAdmin}::boolean OR NOT ${ABOUT_STAFF})`
}

const QUEUE_SELECT = sql`
  SELECT ${OWN_COLUMNS}, k.outcome_note,
    CASE WHEN reporter.id IS NULL THEN NULL ELSE reporter.first_name || ' ' || reporter.last_name END AS reporter_name,
    CASE WHEN subject.id IS NULL THEN NULL ELSE subject.first_name || ' ' || subject.last_name END AS subject_name,
    r.title AS request_title
  FROM ${WITH_ABOUT}
  LEFT JOIN users reporter ON reporter.id = k.reporter_id
  LEFT JOIN users subject ON subject.id = k.subject_user_id`

export function insertConcern (db: Queryable, concern: NewConcern): Promise<{ id: number }> {
  return one<{ id: number }>(db, sql`
    INSERT INTO concerns (reporter_id, kind, subject_user_id, request_id, text, urgent, created_at)
    VALUES (${concern.reporterId}, ${concern.kind ?? 'report'}, ${concern.subjectUserId}, ${concern.requestId}, ${concern.text}, ${concern.urgent}, ${concern.at})
    RETURNING id`)
}

/**
 * docs/api/visit-checks.md: the service's urgent concern about a volunteer not checked out, once per request and volunteer
 * (concerns_one_overdue): undefined when it was raised before.
 */
export function insertOverdueConcern (db: Queryable, concern: { subjectUserId: number, requestId: number, text: string, at: Date }): Promise<{ id: number } | undefined> {
  return maybeOne<{ id: number }>(db, sql`
    INSERT INTO concerns (reporter_id, kind, subject_user_id, request_id, text, urgent, created_at)
    VALUES (NULL, 'visit_overdue', ${concern.subjectUserId}, ${concern.requestId}, ${concern.text}, true, ${concern.at})
    ON CONFLICT (request_id, subject_user_id) WHERE kind = 'visit_overdue' DO NOTHING
    RETURNING id`)
}

/** How many concerns the reporter raised after `since`, and when the oldest of them was raised. */
export function raisedSince (db: Queryable, reporterId: number, since: Date): Promise<{ count: number, oldest: Date | null }> {
  return one(db, sql`
    SELECT count(*)::int AS count, min(created_at) AS oldest FROM concerns
    WHERE reporter_id = ${reporterId} AND created_at > ${since}`)
}

/** The reporter's own concerns, newest first, without the moderators' note (also the export's section). */
export function listOwn (db: Queryable, reporterId: number): Promise<OwnConcernRow[]> {
  return db.query<OwnConcernRow>(sql`
    SELECT ${OWN_COLUMNS} FROM concerns k WHERE k.reporter_id = ${reporterId} ORDER BY k.created_at DESC, k.id DESC`)
}

export function findOwn (db: Queryable, id: number): Promise<OwnConcernRow> {
  return one<OwnConcernRow>(db, sql`SELECT ${OWN_COLUMNS} FROM concerns k WHERE k.id = ${id}`)
}

/** The moderators' queue: urgent first, then oldest first (docs/api/help.md › Concerns), only what `viewer` may see. */
export function listQueue (db: Queryable, viewer: ConcernViewer, status: ConcernStatus, page: Page): Promise<ConcernRow[]> {
  return db.query<ConcernRow>(sql`
    ${QUEUE_SELECT}
    WHERE k.status = ${status} AND ${visibleTo(viewer)}
    ORDER BY k.urgent DESC, k.created_at, k.id
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/** One concern as `viewer` sees it in the queue; undefined when there is none they may see. */
export function findForViewer (db: Queryable, id: number, viewer: ConcernViewer): Promise<ConcernRow | undefined> {
  return maybeOne<ConcernRow>(db, sql`${QUEUE_SELECT} WHERE k.id = ${id} AND ${visibleTo(viewer)}`)
}

/**
 * Locks the concern for its resolution, when `viewer` may see it: its status and subject as they are now,
 * and whether its reporter's account still exists (an erased reporter is told nothing).
 */
export function lockForResolution (tx: Queryable, id: number, viewer: ConcernViewer): Promise<{ status: ConcernStatus, subject_user_id: number | null, request_id: number | null, reporter_id: number | null, reporter_erased: boolean } | undefined> {
  // The service's own concern has no reporter to tell: read as an erased one.
  return maybeOne(tx, sql`
    SELECT k.status, k.subject_user_id, k.request_id, k.reporter_id, reporter.id IS NULL OR reporter.erased_at IS NOT NULL AS reporter_erased
    FROM ${WITH_ABOUT}
    LEFT JOIN users reporter ON reporter.id = k.reporter_id
    WHERE k.id = ${id} AND ${visibleTo(viewer)}
    FOR UPDATE OF k`)
}

export async function resolveConcern (tx: Queryable, id: number, outcome: ConcernOutcome, note: string, resolvedBy: number, at: Date): Promise<void> {
  await tx.query(sql`
    UPDATE concerns SET status = 'resolved', outcome = ${outcome}, outcome_note = ${note}, resolved_by = ${resolvedBy}, resolved_at = ${at}
    WHERE id = ${id} AND status = 'open'`)
}

/**
 * Every moderator and admin who may see the concern (the rule above), except its reporter, who knows of it
 * already; blocked and erased accounts read nothing, so they are left out too.
 */
export async function whoMaySee (tx: Queryable, id: number): Promise<number[]> {
  const rows = await tx.query<{ user_id: number }>(sql`
    SELECT DISTINCT staff.user_id
    FROM ${WITH_ABOUT}
    JOIN user_roles staff ON staff.role_id IN (${MODERATOR_ROLE_ID}, ${ADMIN_ROLE_ID})
    JOIN users u ON u.id = staff.user_id AND NOT u.is_blocked AND u.erased_at IS NULL
    WHERE k.id = ${id} AND staff.user_id IS DISTINCT FROM k.reporter_id AND NOT (staff.user_id = ANY(about.ids))
      AND (NOT ${ABOUT_STAFF} OR EXISTS (SELECT 1 FROM user_roles a WHERE a.user_id = staff.user_id AND a.role_id = ${ADMIN_ROLE_ID}))
    ORDER BY staff.user_id`)
  return rows.map((row) => row.user_id)
}

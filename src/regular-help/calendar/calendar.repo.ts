import { maybeOne, type Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'
import type { Page } from '../../lib/page.js'
import { LIST_ITEM_COLUMNS, LIST_ITEM_FROM, type ListItemRow } from '../../help/requests/search/shared.js'

/**
 * Owns the table `calendar_feeds` (migrations/0022_schedule.sql, docs/api/schedule.md › Calendar feed): one row per person,
 * holding only the SHA-256 of their feed's token. Also the two reads of the calendar module: the
 * requests a feed shows and the "coming help" list.
 */

/** A feed's owner when the token's hash names one whose account is neither blocked nor erased. */
export interface FeedOwner { user_id: number, locale: 'en' | 'de' }

/** The person's feed now answers to this hash only: the old token (if any) stops working in the same statement. */
export async function replaceFeed (db: Queryable, userId: number, tokenHash: string, at: Date): Promise<void> {
  await db.query(sql`
    INSERT INTO calendar_feeds (user_id, token_hash, created_at) VALUES (${userId}, ${tokenHash}, ${at})
    ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`)
}

export async function deleteFeed (db: Queryable, userId: number): Promise<void> {
  await db.query(sql`DELETE FROM calendar_feeds WHERE user_id = ${userId}`)
}

export function findFeedOwner (db: Queryable, tokenHash: string): Promise<FeedOwner | undefined> {
  return maybeOne<FeedOwner>(db, sql`
    SELECT f.user_id, u.locale FROM calendar_feeds f JOIN users u ON u.id = f.user_id
    WHERE f.token_hash = ${tokenHash} AND NOT u.is_blocked AND u.erased_at IS NULL`)
}

/** A request of a feed: its list item's columns, when it is wanted by and when it last changed. */
export interface FeedRow extends ListItemRow { desired_completion_date: Date | null, updated_at: Date }

/** More than any person's calendar holds in 30 days plus a 90-day horizon; a guard on the answer's size. */
export const FEED_CAP = 1000

/** How long the event of a request with a date but no window lasts in a helper's calendar: the hour up to that date. */
export const DATE_ONLY_MS = 3_600_000

/**
 * The person's own requests with a window, and those assigned to them with a window or, without one, a date they are
 * wanted by (a one-off lift: the hour before it), that end after `from` and start before `to`, in every status (a
 * cancelled one shows as cancelled), soonest first.
 */
export function feedRequests (db: Queryable, userId: number, from: Date, to: Date): Promise<FeedRow[]> {
  return db.query<FeedRow>(sql`
    SELECT ${LIST_ITEM_COLUMNS}, r.desired_completion_date, r.updated_at
    FROM ${LIST_ITEM_FROM}
    WHERE ((r.window_start IS NOT NULL AND (r.requester_id = ${userId} OR r.assigned_volunteer_id = ${userId})
        AND r.window_end > ${from} AND r.window_start < ${to})
      OR (r.window_start IS NULL AND r.assigned_volunteer_id = ${userId} AND r.desired_completion_date > ${from}
        AND r.desired_completion_date - make_interval(secs => ${DATE_ONLY_MS / 1000}) < ${to}))
    ORDER BY COALESCE(r.window_start, r.desired_completion_date - make_interval(secs => ${DATE_ONLY_MS / 1000})), r.id
    LIMIT ${FEED_CAP}`)
}

/**
 * A coming-help row: whose side of the request the person is on, and on her own request in progress the name of the
 * volunteer who is coming ("First Last", as she sees it on the request's page); null otherwise.
 */
export interface ComingRow extends ListItemRow { role: 'requester' | 'volunteer', volunteer_name: string | null }

/**
 * What is coming for the person, soonest first: their own open requests (awaiting moderation, approved or
 * in progress) and the in_progress ones assigned to them, each with a window not yet over at `now`.
 */
export function comingHelp (db: Queryable, userId: number, now: Date, page: Page): Promise<ComingRow[]> {
  return db.query<ComingRow>(sql`
    SELECT ${LIST_ITEM_COLUMNS}, CASE WHEN r.requester_id = ${userId} THEN 'requester' ELSE 'volunteer' END AS role,
      CASE WHEN r.requester_id = ${userId} AND r.status = 'in_progress' THEN v.first_name || ' ' || v.last_name END AS volunteer_name
    FROM ${LIST_ITEM_FROM}
    LEFT JOIN users v ON v.id = r.assigned_volunteer_id
    WHERE r.window_end > ${now}
      AND ((r.requester_id = ${userId} AND r.status IN ('pending_moderation', 'approved', 'in_progress'))
        OR (r.assigned_volunteer_id = ${userId} AND r.status = 'in_progress'))
    ORDER BY r.window_start, r.id
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}
